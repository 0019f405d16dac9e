// The spec reporter, plus one plain closing line "N passed, N failed" that any
// CI log reader understands.
'use strict';
const Mocha = require('mocha');
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || this.stats;
      process.stdout.write(`\ntests: ${s.passes} passed, ${s.failures} failed\n`);
    });
  }
}
module.exports = SpecWithSummary;
