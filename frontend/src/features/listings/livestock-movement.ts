/**
 * What a buyer must check before moving animals, said on a livestock listing and in the wizard.
 * Links are GOV.UK searches for the official guidance by its subject (their titles change; a search
 * finds the current page), and the TB Hub, the industry's bovine TB guide for England and Wales.
 */
const govUkSearch = (keywords: string) => `https://www.gov.uk/search/all?keywords=${encodeURIComponent(keywords)}`;

export const LIVESTOCK_MOVEMENT = {
  declaration:
    'The holding number, tags, TB status, test dates and health schemes on a listing are the seller’s own declaration. Fieldmarket does not check them against official records.',
  beforeMoving:
    'Before you move animals: check the animals’ passports or movement documents and ear tags against the animals; for cattle, check the herd’s TB status and that a pre-movement test is still valid on the day they move (60 days from the test, where one is needed); report the movement as the rules of your country require. Testing rules differ by TB area (England’s High Risk, Edge and Low Risk areas, Wales’s TB areas; Scotland is officially TB free): check the area of both holdings on the official map.',
  guidance: [
    { name: 'Bovine TB: pre-movement testing', publisher: 'GOV.UK search', url: govUkSearch('bovine TB pre-movement testing') },
    { name: 'Cattle movements: report and record', publisher: 'GOV.UK search', url: govUkSearch('cattle movements report') },
    { name: 'Sheep and goat movements: report and record', publisher: 'GOV.UK search', url: govUkSearch('sheep and goat movements') },
    { name: 'Pig movements: report and record', publisher: 'GOV.UK search', url: govUkSearch('pig movements') },
    { name: 'TB Hub: TB rules and the area map (England and Wales)', publisher: 'tbhub.co.uk', url: 'https://tbhub.co.uk/' },
  ],
} as const;

/**
 * The TB area of a listing's place, as far as its country settles it (checked 26 November 2026):
 * Scotland has been officially TB free as a whole since 2009 (Scottish Government, "Bovine TB").
 * England's risk areas and Wales's TB areas follow county and even parish lines that move, and we
 * store only the country, so for those the buyer is sent to the official map rather than told a guess.
 */
export function tbAreaOf(location: string): string | undefined {
  const country = location.split(',').at(-1)?.trim();
  switch (country) {
    case 'Scotland':
      return 'Scotland: officially TB free (the whole country)';
    case 'England':
      return 'England: High Risk, Edge or Low Risk Area by location: see the official TB map (ibTB, or the TB Hub’s map)';
    case 'Wales':
      return 'Wales: Low, Intermediate or High TB Area by location: see the official TB map (ibTB, or the TB Hub’s map)';
    case 'Northern Ireland':
      return 'Northern Ireland: see DAERA’s bovine TB guidance';
    default:
      return undefined;
  }
}
