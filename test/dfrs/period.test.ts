/** Figures 3-4 against several batch baselines: the crossover period and the per-period comparison. */
import { expect } from 'chai';
import { crossoverPeriod, periodAgainstBaselines } from '../../src/schedulers/dfrs/period';

describe('dfrs period sweep against batch baselines', () => {
  it('crossoverPeriod: the shortest period below the reference, whatever the order; NaN when never', () => {
    const curve = [{ period: 1800, value: 0.05 }, { period: 600, value: 0.2 }, { period: 1200, value: 0.09 }, { period: 900, value: 0.11 }];
    expect(crossoverPeriod(curve, 0.1)).to.equal(1200);
    expect(crossoverPeriod(curve, 0.3)).to.equal(600);
    // equal is not below
    expect(crossoverPeriod(curve, 0.05)).to.be.NaN;
    expect(crossoverPeriod(curve, NaN)).to.be.NaN;
    expect(crossoverPeriod([{ period: 600, value: NaN }], 1)).to.be.NaN;
  });

  it('periodAgainstBaselines: averages per (set, period), each baseline beside them, a crossover per (set, baseline)', () => {
    const dfrsRec = (trace_set: string, period: number, norm_underutilization: number, degradation: number) => ({ trace_set, period, norm_underutilization, degradation });
    const period = [
      dfrsRec('a', 1200, 0.05, 4), dfrsRec('a', 600, 0.2, 2), dfrsRec('a', 600, 0.1, 4),
      dfrsRec('b', 600, 0.3, 10),
    ];
    const batch = [
      { algorithm: 'EASY', trace_set: 'a', norm_underutilization: 0.1, degradation: 30 },
      { algorithm: 'EASY', trace_set: 'a', norm_underutilization: 0.2, degradation: 60 },
      { algorithm: 'E2', trace_set: 'a', norm_underutilization: 0.01, degradation: 300 },
      { algorithm: 'E2', trace_set: 'b', norm_underutilization: 0.5, degradation: 100 },
      { algorithm: 'FCFS', trace_set: 'a', norm_underutilization: 0, degradation: 1 },
    ];
    const { rows, crossovers } = periodAgainstBaselines(period, batch, ['EASY', 'E2']);
    expect(rows.map((r) => [r.trace_set, r.period])).to.deep.equal([['a', 600], ['a', 1200], ['b', 600]]);
    expect(rows[0].underutilization).to.be.closeTo(0.15, 1e-12);
    expect(rows[0].degradation).to.equal(3);
    expect(rows[0]['EASY underutilization']).to.be.closeTo(0.15, 1e-12);
    expect(rows[0]['EASY / DFRS degradation']).to.equal(15);
    expect(rows[1]['E2 / DFRS degradation']).to.equal(75);
    expect(rows[2]['EASY underutilization']).to.be.NaN;
    expect(crossovers).to.deep.equal([
      { trace_set: 'a', baseline: 'EASY', baseline_underutilization: crossovers[0].baseline_underutilization, crossover_period: 1200 },
      { trace_set: 'a', baseline: 'E2', baseline_underutilization: 0.01, crossover_period: NaN },
      { trace_set: 'b', baseline: 'EASY', baseline_underutilization: NaN, crossover_period: NaN },
      { trace_set: 'b', baseline: 'E2', baseline_underutilization: 0.5, crossover_period: 600 },
    ]);
  });
});
