import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheEntryFile, codeDigest, dependencyVersions, openEntry, readCached, sealEntry, throughCache, writeCached } from '../../src/util/cache';

describe('util/cache: content-addressed cache', () => {
  let tmp = '';
  let saved: string | undefined;
  let code = '';
  let input = '';
  before(() => {
    saved = process.env.SCHEDLAB_CACHE;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-cache-'));
    process.env.SCHEDLAB_CACHE = path.join(tmp, 'cache');
    code = path.join(tmp, 'code');
    fs.mkdirSync(path.join(code, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(code, 'a.js'), 'exports.a = 1;\n');
    fs.writeFileSync(path.join(code, 'sub', 'b.js'), 'exports.b = 2;\n');
    input = path.join(tmp, 'input.txt');
    fs.writeFileSync(input, 'records v1\n');
  });
  after(() => {
    if (saved === undefined) delete process.env.SCHEDLAB_CACHE;
    else process.env.SCHEDLAB_CACHE = saved;
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const key = (name = 'n', codeRoot = code) => ({ kind: 'test', name, key: { x: 1 }, codeRoot });

  it('reads back what was written, numbers JSON cannot hold included', () => {
    const value = { a: [1, NaN, Infinity, -Infinity, -0], s: 'x', nested: { n: null } };
    writeCached(key(), [input], value);
    const got = readCached<typeof value>(key());
    expect(got).to.deep.equal(value);
    expect(Object.is(got!.a[4], -0)).to.equal(true);
    expect(throughCache(value)).to.deep.equal(value);
    // written whole: no temporary file left beside the entry
    expect(fs.readdirSync(path.dirname(cacheEntryFile(key())!)).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('misses when an input file changes, appears or disappears', () => {
    const absent = path.join(tmp, 'absent.txt');
    writeCached(key('inputs'), [input, absent], 'v1');
    expect(readCached(key('inputs'))).to.equal('v1');
    fs.writeFileSync(input, 'records v2\n');
    expect(readCached(key('inputs'))).to.equal(undefined);
    writeCached(key('inputs'), [input, absent], 'v2');
    expect(readCached(key('inputs'))).to.equal('v2');
    fs.writeFileSync(absent, 'now here\n');
    expect(readCached(key('inputs'))).to.equal(undefined);
    fs.rmSync(absent);
    expect(readCached(key('inputs'))).to.equal('v2');
    fs.rmSync(input);
    expect(readCached(key('inputs'))).to.equal(undefined);
    fs.writeFileSync(input, 'records v1\n');
  });

  it('misses when the code changes (any file under its root)', () => {
    writeCached(key('code'), [input], 'computed by v1');
    expect(readCached(key('code'))).to.equal('computed by v1');
    const changed = path.join(tmp, 'code-changed');
    fs.cpSync(code, changed, { recursive: true });
    expect(codeDigest(changed)).to.equal(codeDigest(code)); // same bytes, same digest (names relative to the root)
    const other = path.join(tmp, 'code-other');
    fs.cpSync(code, other, { recursive: true });
    fs.appendFileSync(path.join(other, 'sub', 'b.js'), '// changed\n');
    expect(codeDigest(other)).to.not.equal(codeDigest(code));
    expect(readCached(key('code', changed))).to.equal('computed by v1');
    expect(readCached(key('code', other))).to.equal(undefined);
  });

  it("keys on the installed versions of the package's dependencies, as Node resolves them", () => {
    const pkg = path.join(tmp, 'project', 'node_modules', 'lib');
    const install = (dir: string, name: string, version: string) => {
      fs.mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
      fs.writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
    };
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'lib', dependencies: { zeta: '^1', alpha: '^2', gone: '^3' } }));
    install(path.join(tmp, 'project'), 'alpha', '2.0.1'); // hoisted beside the package
    install(path.join(tmp, 'project'), 'zeta', '1.0.0');
    install(pkg, 'zeta', '1.4.0'); // nested: found first
    expect(dependencyVersions(pkg)).to.deep.equal(['alpha@2.0.1', 'gone@-', 'zeta@1.4.0']);
    // this package's own: every dependency of its package.json, at the installed version
    const own = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const danfo = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../node_modules/danfojs/package.json'), 'utf8')) as { version: string };
    expect(dependencyVersions()).to.have.length(Object.keys(own.dependencies).length).and.include(`danfojs@${danfo.version}`);
  });

  it('ignores a truncated, corrupt or foreign entry', () => {
    writeCached(key('damaged'), [input], { v: 1 });
    const file = cacheEntryFile(key('damaged'))!;
    const whole = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, whole.slice(0, whole.length - 5));
    expect(readCached(key('damaged'))).to.equal(undefined);
    fs.writeFileSync(file, whole.replace('{\\"v\\":1}', '{\\"v\\":2}'));
    expect(fs.readFileSync(file, 'utf8')).to.not.equal(whole);
    expect(readCached(key('damaged'))).to.equal(undefined);
    // resealed but recorded for another key (e.g. another code digest under the same name)
    const entry = openEntry(whole)!;
    fs.writeFileSync(file, sealEntry({ key: 'f'.repeat(64), inputs: entry.inputs, value: { v: 1 } }));
    expect(readCached(key('damaged'))).to.equal(undefined);
    fs.writeFileSync(file, whole);
    expect(readCached(key('damaged'))).to.deep.equal({ v: 1 });
  });

  it('writes nothing when an input was replaced during the computation, and nothing when off', () => {
    writeCached(key('raced'), [input], 'v', () => false);
    expect(fs.existsSync(cacheEntryFile(key('raced'))!)).to.equal(false);
    const was = process.env.SCHEDLAB_CACHE;
    process.env.SCHEDLAB_CACHE = 'off';
    try {
      expect(cacheEntryFile(key('off'))).to.equal(null);
      writeCached(key('off'), [input], 'v');
      expect(readCached(key('off'))).to.equal(undefined);
    } finally {
      process.env.SCHEDLAB_CACHE = was;
    }
  });

  it('keeps the newest four entries of one name', () => {
    for (let i = 0; i < 7; i++) writeCached({ ...key('pruned'), key: { i } }, [input], i);
    const dir = path.dirname(cacheEntryFile(key('pruned'))!);
    expect(fs.readdirSync(dir).filter((f) => /^pruned-[0-9a-f]{32}\.json$/.test(f)).length).to.equal(4);
    expect(readCached({ ...key('pruned'), key: { i: 6 } })).to.equal(6);
  });
});
