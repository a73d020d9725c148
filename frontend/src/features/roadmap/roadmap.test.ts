import { describe, expect, it } from '@jest/globals';
import { COMING_SOON, PHASES, phaseStatus } from './roadmap';

describe('the roadmap', () => {
  it("has the spec's seven phases and fifteen Coming Soon features, none listed twice", () => {
    expect(PHASES).toHaveLength(7);
    expect(COMING_SOON).toHaveLength(15);
    expect(new Set(COMING_SOON).size).toBe(15);
  });

  it('calls a phase completed only when every feature is, planned only when none has started', () => {
    const phase = (...statuses: Array<'completed' | 'in-progress' | 'planned'>) => ({
      title: 't',
      summary: 's',
      features: statuses.map((status, i) => ({ name: `f${i}`, status })),
    });
    expect(phaseStatus(phase('completed', 'completed'))).toBe('completed');
    expect(phaseStatus(phase('completed', 'planned'))).toBe('in-progress');
    expect(phaseStatus(phase('in-progress', 'planned'))).toBe('in-progress');
    expect(phaseStatus(phase('planned', 'planned'))).toBe('planned');
  });
});
