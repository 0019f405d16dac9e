/**
 * Counts of the hardening tests (see test/support/tally.ts). Print the table
 * that docs/hardening.md holds with:
 *
 *   SCHEDLAB_HARDENING_TABLE=1 npx mocha 'test/hardening/**\/*.test.ts'
 */
import { createTally } from '../support/tally';

const tally = createTally('area', 'SCHEDLAB_HARDENING_TABLE');
export const record = tally.record;
export const tallyRows = tally.rows;
export const tallyTable = tally.table;
