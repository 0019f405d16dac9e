/**
 * The API reference: every export of `schedlab` has a doc comment, docs/api/
 * is what scripts/api-docs.ts generates from them, and every @example
 * type-checks against the compiled declarations (dist/*.d.ts, so the check
 * takes seconds, not a type-check of src/).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { API_DIR, readApi, renderApi, ROOT } from '../../scripts/api-docs';
import { assertDistFresh } from '../support/dist';

describe('API reference (docs/api/)', function () {
  this.timeout(120000);
  const api = readApi();
  const entries = api.groups.flatMap((g) => g.entries);

  it('every export of schedlab has a doc comment', () => {
    expect(entries.length).to.be.above(500);
    expect(entries.filter((e) => !e.doc).map((e) => e.name)).to.deep.equal([]);
  });

  it('docs/api/ is what scripts/api-docs.ts generates (run it after changing a doc comment)', () => {
    const files = renderApi(api);
    expect(fs.readdirSync(API_DIR).sort()).to.deep.equal([...files.keys()].sort());
    for (const [name, text] of files) expect(fs.readFileSync(path.join(API_DIR, name), 'utf8'), name).to.equal(text);
  });

  it('the main exports have examples, and every example compiles against schedlab', () => {
    assertDistFresh(); // the examples compile against dist/*.d.ts
    const withExamples = entries.filter((e) => e.examples.length > 0).map((e) => e.name);
    for (const main of ['simulateBatch', 'summarizeRun', 'generateLublin', 'loadTrace', 'toFrame', 'summarize', 'lineChart', 'show', 'saveFigure', 'writeTable', 'compareBatchPolicies']) {
      expect(withExamples, main).to.include(main);
    }
    // One virtual file per example: every top-level export in scope, top-level await allowed.
    const names = api.groups[0].entries.map((e) => e.name).concat(api.groups.slice(1).map((g) => g.title));
    const files = new Map<string, string>();
    entries.forEach((e) => e.examples.forEach((ex, k) => files.set(path.join(ROOT, '.api-examples', `${e.name}-${k}.ts`), `import { ${names.join(', ')} } from 'schedlab';\nexport async function example() {\n${ex}\n}\n`)));
    const options: ts.CompilerOptions = {
      strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: ['node'],
      baseUrl: ROOT, paths: { schedlab: ['dist/index.d.ts'] }, noUnusedLocals: false,
    };
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (f) => files.get(path.resolve(f)) ?? read(f);
    host.fileExists = (f) => files.has(path.resolve(f)) || exists(f);
    host.getSourceFile = (f, lang, ...rest) => {
      const text = files.get(path.resolve(f));
      return text !== undefined ? ts.createSourceFile(f, text, lang) : getSourceFile(f, lang, ...rest);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = [...files.keys()].flatMap((f) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - 1 : -1;
        return `${path.basename(f)} line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      }),
    );
    expect(problems).to.deep.equal([]);
  });
});
