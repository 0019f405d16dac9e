import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { loadTrace, findTrace, traceInfo, traceManifest, verifyTraceFile } from '../../src/workloads/traces';

describe('trace manifest and loader', () => {
  it('manifest lists the five traces with checksums and machine sizes', () => {
    const m = traceManifest();
    expect(m.map((t) => t.name)).to.include.members(['HPC2N', 'LANL-CM5', 'CTC-SP2', 'KTH-SP2', 'SDSC-BLUE']);
    for (const t of m) {
      expect(t.sha256).to.match(/^[0-9a-f]{64}$/);
      expect(t.machineSize).to.be.greaterThan(0);
      expect(t.archiveUrl).to.match(/^https?:\/\//);
    }
    expect(traceInfo('kth-sp2-1996-2.1-cln.swf.gz').name).to.equal('KTH-SP2');
    expect(() => traceInfo('NOPE')).to.throw(/unknown trace 'NOPE'.*KTH-SP2/);
  });

  it('loads KTH-SP2 with verified checksum; job lines match the manifest', async () => {
    const t = await loadTrace('KTH-SP2');
    expect(t.report.read).to.equal(t.info.jobs);
    // One KTH job line has processors -1 and is dropped as missing.
    expect(t.report.dropped).to.deep.equal({ 'missing processors': 1 });
    expect(t.jobs.length).to.equal(t.info.jobs - 1);
    expect(t.header.fields.MaxProcs).to.equal('100');
  });

  it('a missing trace gives a clear message; a modified copy fails the checksum', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traces-'));
    try {
      let msg = '';
      await loadTrace('KTH-SP2', { dir }).catch((e: Error) => (msg = e.message));
      expect(msg).to.contain("trace 'KTH-SP2'");
      expect(msg).to.contain(`not found in: ${dir}`);
      expect(msg).to.contain('downloadTrace');
      const src = findTrace('KTH-SP2') as string;
      const text = zlib.gunzipSync(fs.readFileSync(src)).toString('utf8');
      const tampered = path.join(dir, traceInfo('KTH-SP2').file);
      // Change one character of one job line.
      const at = text.lastIndexOf('\n', text.length - 2) + 1;
      fs.writeFileSync(tampered, zlib.gzipSync(text.slice(0, at) + (text[at] === '9' ? '8' : '9') + text.slice(at + 1)));
      expect(() => verifyTraceFile('KTH-SP2', tampered)).to.throw(/checksum mismatch/);
      let msg2 = '';
      await loadTrace('KTH-SP2', { dir }).catch((e: Error) => (msg2 = e.message));
      expect(msg2).to.match(/checksum mismatch/);
      // With verification off the tampered copy loads.
      expect((await loadTrace('KTH-SP2', { dir, verify: false })).jobs.length).to.be.greaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
