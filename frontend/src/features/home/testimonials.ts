export interface Testimonial {
  id: number;
  name: string;
  role: string;
  location: string;
  rating: 5;
  quote: string;
}

/** The eight static entries of the home page's testimonial strip. */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    id: 1,
    name: 'Sarah Mitchell',
    role: 'Arable farmer',
    location: 'Lincolnshire',
    rating: 5,
    quote: 'I sold our old combine within a fortnight. Buyers could see exactly what they were getting.',
  },
  {
    id: 2,
    name: 'James Thornton',
    role: 'Landowner',
    location: 'Herefordshire',
    rating: 5,
    quote: 'Letting our spare grazing used to mean word of mouth. Now local graziers find us directly.',
  },
  {
    id: 3,
    name: 'Aled Morgan',
    role: 'Sheep farmer',
    location: 'Powys',
    rating: 5,
    quote: 'Simple to post, simple to message buyers. Exactly what a busy lambing season needs.',
  },
  {
    id: 4,
    name: 'Fiona Campbell',
    role: 'Market gardener',
    location: 'Perthshire',
    rating: 5,
    quote: 'I found heritage seed potatoes from a grower two counties away. Brilliant for small growers.',
  },
  {
    id: 5,
    name: 'Tom Hargreaves',
    role: 'Agricultural contractor',
    location: 'North Yorkshire',
    rating: 5,
    quote: 'Listing my hedge-cutting and baling services has filled the quiet weeks in my diary.',
  },
  {
    id: 6,
    name: 'Priya Shah',
    role: 'Smallholder',
    location: 'Kent',
    rating: 5,
    quote: 'Renting a compact tractor for a month saved us buying one we would barely use.',
  },
  {
    id: 7,
    name: 'Rob Penhaligon',
    role: 'Dairy farmer',
    location: 'Cornwall',
    rating: 5,
    quote: 'Straightforward and free. It feels like a marketplace built by people who know farming.',
  },
  {
    id: 8,
    name: 'Catherine Doyle',
    role: 'Equipment dealer',
    location: 'County Down',
    rating: 5,
    quote: 'Our used machinery reaches farmers right across the UK, not just our own corner.',
  },
];
