// Preload (`mocha --require`, `node -r`) for the tests: .ts files load through
// the cached transpiler (ts-cache.js) unless ts-node already loads them, and
// the toolkit's worker threads and the child processes the tests start use it
// too (SCHEDLAB_TS_REGISTER, inherited by children). The mocha process loads
// every test file, and so most of src/, before the first test: the workers
// and children then find the toolkit transpiled.
'use strict';
const path = require('path');
const cache = require('./ts-cache');

cache.register({ transpileOnly: true, project: path.resolve(__dirname, '..', '..', 'tsconfig.json'), compilerOptions: { module: 'commonjs', moduleResolution: 'node' } });
process.env.SCHEDLAB_TS_REGISTER = require.resolve('./ts-cache');
