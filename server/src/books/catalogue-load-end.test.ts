import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { createLocalLoadSharing, type LoadSharing } from './catalogue-load-sharing.ts';
import { createCatalogueLoads, LoadCancelled } from './catalogue-loads.ts';

/** A sharing whose lock is let go only when the test says so, as a PostgreSQL unlock may take a while. */
function slowRelease() {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const sharing: LoadSharing = { ...createLocalLoadSharing(), acquire: async () => () => released };
  return { sharing, letGo };
}

describe('a catalogue load’s end', () => {
  it('shows the load ended only once its lock is let go, so the next load may begin at once', async () => {
    const { sharing, letGo } = slowRelease();
    const loads = createCatalogueLoads({ clock: systemClock, sharing });
    const tracker = await loads.begin('upload', 'replace', null);
    const ending = tracker.ended(new LoadCancelled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loads.current()?.phase).toBe('receiving');
    letGo();
    await ending;
    expect(loads.current()).toMatchObject({ id: tracker.id, phase: 'cancelled' });
    const next = await loads.begin('upload', 'update', null);
    expect(next.id).not.toBe(tracker.id);
  });
});
