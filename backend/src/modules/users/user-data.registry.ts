import { Injectable } from '@nestjs/common';

/**
 * What each module holds about a person, for the export and the profile's statistics. A module
 * registers its part once (onModuleInit); the profile asks every part. (Removing a person's data
 * goes the other way: each module subscribes to `user.deleted`.)
 */
export interface UserDataPart {
  /** The key of this part in the export, e.g. "listings". */
  name: string;
  /** Everything the module stores about the user, as plain JSON. */
  exportFor(userId: string): Promise<unknown>;
}

export interface ProfileStatistics {
  activeListings: number;
  messages: number;
  /** Listings marked sold or let. */
  listingsSold: number;
  /** The median time to a first reply to someone who wrote about one of the user's listings; null under 3 replies. */
  typicalReplyMinutes: number | null;
  /** Whether one of the user's live listings declares a holding (CPH) number: "CPH declared", never verified. */
  cphDeclared: boolean;
}

export type StatisticsPart = (userId: string) => Promise<Partial<ProfileStatistics>>;

@Injectable()
export class UserDataRegistry {
  private readonly parts = new Map<string, UserDataPart>();
  private readonly statistics: StatisticsPart[] = [];

  addPart(part: UserDataPart): void {
    if (this.parts.has(part.name)) throw new Error(`Two modules export user data as "${part.name}"`);
    this.parts.set(part.name, part);
  }

  addStatistics(part: StatisticsPart): void {
    this.statistics.push(part);
  }

  async exportFor(userId: string): Promise<Record<string, unknown>> {
    const entries = await Promise.all([...this.parts.values()].map(async (part) => [part.name, await part.exportFor(userId)] as const));
    return Object.fromEntries(entries);
  }

  async statisticsFor(userId: string): Promise<ProfileStatistics> {
    const totals: ProfileStatistics = { activeListings: 0, messages: 0, listingsSold: 0, typicalReplyMinutes: null, cphDeclared: false };
    for (const part of await Promise.all(this.statistics.map((read) => read(userId)))) {
      totals.activeListings += part.activeListings ?? 0;
      totals.messages += part.messages ?? 0;
      totals.listingsSold += part.listingsSold ?? 0;
      totals.typicalReplyMinutes ??= part.typicalReplyMinutes ?? null;
      totals.cphDeclared ||= part.cphDeclared ?? false;
    }
    return totals;
  }
}
