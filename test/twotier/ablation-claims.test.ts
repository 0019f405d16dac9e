import { expect } from 'chai';
import { measyAblationRows, measyCauses, MEASY_ABLATION_QUESTIONS } from '../../src/claims/05-measy';
import type { MeasyCellRecord } from '../../src/schedulers/twotier';
import type { MeasyAblationRecord } from '../../src/sweep/papers/05-measy';

const rec = (policy: string, load: number, meanResponse: number, extra: Partial<MeasyCellRecord> = {}): MeasyCellRecord =>
  ({ workload: 'jann', policy, load, jobs: 100, seed: 1, cpuInfo: 'exact', cpuUsage: 'paper', migrationCost: 20, meanResponse, meanBoundedSlowdown: meanResponse / 100, ...extra }) as MeasyCellRecord;
const abl = (r: MeasyCellRecord, a: Partial<MeasyAblationRecord>): MeasyAblationRecord =>
  ({ ...r, ablation: 'reasy', part: 'main', estimateModel: 'tsafrir', backgroundModel: 'demand', reasyReservation: 'text', ...a }) as MeasyAblationRecord;

describe('05 claims: ablation rows (which switch moves our number to the published one)', () => {
  // By default REASY beats EASY on JWload (the published statement is contradicted); the switched REASY is worse.
  const main = [0.5, 0.6, 0.7].flatMap((l) => [rec('easy', l, 100), rec('keasy', l, 80), rec('measy', l, 70), rec('reasy', l, 90)]);
  const view = { main, noInfo: [], full: [], costs: [], ctc: [] };
  const reasyAlg = [0.5, 0.6].map((l) => abl(rec('reasy', l, 130), { reasyReservation: 'algorithm' }));

  it('judges both sides on the same cells (the loads the switch ran) with the registry rule', () => {
    const rows = measyAblationRows(view, reasyAlg);
    const row = rows.find((r) => r.claim === 'reasy-worse-than-easy-jw')!;
    expect(row.verdict).to.equal('contradicted');
    expect(row.switchedVerdict).to.equal('reproduced');
    expect(row.moves).to.equal('to the published');
    expect(row.cells).to.equal(2 + 2 * 3); // two switched REASY cells + EASY, KEASY, MEASY shared at 0.5 and 0.6
    expect(row.ours).to.not.include('0.7');
    expect(rows.find((r) => r.claim === 'reasy-worst-jann')).to.include({ verdict: 'reproduced', switchedVerdict: 'reproduced', moves: 'no' });
    const causes = measyCauses(rows);
    expect(causes.find((c) => c.claim === 'reasy-worse-than-easy-jw')!.explainedBy).to.equal(MEASY_ABLATION_QUESTIONS[0].switch);
  });

  it('a switch that leaves the direction as it is explains nothing', () => {
    const rows = measyAblationRows(view, [0.5, 0.6].map((l) => abl(rec('reasy', l, 95), { reasyReservation: 'algorithm' })));
    const row = rows.find((r) => r.claim === 'reasy-worse-than-easy-jw')!;
    expect(row.switchedVerdict).to.equal('contradicted');
    expect(row.moves).to.equal('no');
    expect(measyCauses(rows).find((c) => c.claim === 'reasy-worse-than-easy-jw')!.explainedBy).to.equal('—');
  });

  it('records of a switch that cannot change a policy are not shared for a switch that can (estimates change EASY too)', () => {
    const est = [0.5, 0.6].map((l) => abl(rec('reasy', l, 130), { ablation: 'estimates', estimateModel: 'exact' }));
    // no EASY record under the switch: the REASY-vs-EASY claim cannot be measured, so no row
    expect(measyAblationRows(view, est).filter((r) => r.claim === 'reasy-worse-than-easy-jw')).to.deep.equal([]);
  });
});
