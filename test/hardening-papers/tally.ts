/**
 * Counts of the paper-family hardening tests (see test/support/tally.ts). Print
 * the table that docs/hardening-papers.md holds with:
 *
 *   SCHEDLAB_HARDENING_PAPERS_TABLE=1 npx mocha 'test/hardening-papers/**\/*.test.ts'
 */
import { createTally } from '../support/tally';

const tally = createTally('family', 'SCHEDLAB_HARDENING_PAPERS_TABLE');
export const record = tally.record;
export const tallyRows = tally.rows;
export const tallyTable = tally.table;
