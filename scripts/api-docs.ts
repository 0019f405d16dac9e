/**
 * The API reference of `schedlab` (docs/api/), generated from the doc
 * comments of every export of src/index.ts, read from the compiled
 * declarations (dist/*.d.ts keep the comments, and reading them is much
 * faster than type-checking src/).
 *
 *   npm run build && npx ts-node scripts/api-docs.ts    # rewrites docs/api/
 *
 * test/docs/api.test.ts checks that every export has a doc comment, that
 * docs/api/ is what this script writes, and that every @example compiles.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..');
export const API_DIR = path.join(ROOT, 'docs', 'api');
const ENTRY = path.join(ROOT, 'dist', 'index.d.ts');

export interface ApiEntry {
  /** `name`, or `namespace.name` for members of `export * as namespace`. */
  name: string;
  kind: string;
  /** Declaration header(s), one per overload. */
  signatures: string[];
  /** The doc comment's text ('' when there is none). */
  doc: string;
  examples: string[];
  /** The source module it comes from (`analysis/show`). */
  module: string;
}

export interface Api {
  /** Top-level exports, then one list per namespace. */
  groups: { title: string; file: string; intro: string; entries: ApiEntry[] }[];
}

function kindOf(sym: ts.Symbol): string {
  const f = sym.flags;
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  if (f & ts.SymbolFlags.Module) return 'namespace';
  return 'export';
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A declaration without its body and comments: the signature a reader needs. */
function header(decl: ts.Declaration, sf: ts.SourceFile): string {
  let text: string;
  if (ts.isInterfaceDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isEnumDeclaration(decl)) {
    // Members are listed whole: they are the interface.
    text = printer.printNode(ts.EmitHint.Unspecified, decl, sf);
  } else if (ts.isVariableDeclaration(decl)) {
    text = `const ${printer.printNode(ts.EmitHint.Unspecified, decl, sf)}`;
  } else {
    text = printer.printNode(ts.EmitHint.Unspecified, decl, sf);
  }
  return text.replace(/^export (declare )?/, '').replace(/^declare /, '').trim();
}

function docOf(sym: ts.Symbol, checker: ts.TypeChecker): { doc: string; examples: string[] } {
  const doc = ts.displayPartsToString(sym.getDocumentationComment(checker)).trim();
  const examples = sym
    .getJsDocTags(checker)
    .filter((t) => t.name === 'example')
    .map((t) => ts.displayPartsToString(t.text).replace(/^\n+|\s+$/g, ''));
  return { doc, examples };
}

function entryOf(name: string, sym: ts.Symbol, checker: ts.TypeChecker): ApiEntry {
  const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  const decls = target.getDeclarations() ?? [];
  const sf = decls[0]?.getSourceFile();
  const module = sf ? path.relative(path.join(ROOT, 'dist'), sf.fileName).replace(/\.d\.ts$/, '') : '';
  // Overloads and declaration merging: every declaration's own doc and header.
  const own = docOf(target, checker);
  // A module re-exported as a name (`export { measy }`): its file comment is its doc.
  const doc = own.doc || (decls.some(ts.isSourceFile) ? moduleDoc(target) : '');
  const examples = own.examples;
  const signatures = decls.filter((d) => !ts.isModuleDeclaration(d) && !ts.isSourceFile(d)).map((d) => header(d, d.getSourceFile()));
  return { name, kind: kindOf(target), signatures, doc, examples, module };
}

/** The module's own comment (first JSDoc of the file), for a namespace. */
function moduleDoc(sym: ts.Symbol): string {
  const sf = sym.getDeclarations()?.find(ts.isSourceFile);
  if (!sf) return '';
  // From the source file: a declaration file drops the comment with an import it does not need.
  const source = path.join(ROOT, 'src', path.relative(path.join(ROOT, 'dist'), sf.fileName).replace(/\.d\.ts$/, '.ts'));
  const text = fs.existsSync(source) ? fs.readFileSync(source, 'utf8') : sf.getFullText();
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(text.trimStart());
  return m ? m[1].split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n').trim() : '';
}

/** Read the API from dist/index.d.ts. */
export function readApi(entry = ENTRY): Api {
  if (!fs.existsSync(entry)) throw new Error(`${entry} not found: run npm run build first`);
  const program = ts.createProgram([entry], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const root = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
  const top: ApiEntry[] = [];
  const groups: Api['groups'] = [];
  for (const sym of checker.getExportsOfModule(root).sort((a, b) => a.name.localeCompare(b.name))) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    if (target.flags & ts.SymbolFlags.ValueModule && target.getDeclarations()?.some(ts.isSourceFile)) {
      const members = checker.getExportsOfModule(target).sort((a, b) => a.name.localeCompare(b.name));
      groups.push({ title: sym.name, file: `${sym.name}.md`, intro: moduleDoc(target), entries: members.map((m) => entryOf(`${sym.name}.${m.name}`, m, checker)) });
    } else top.push(entryOf(sym.name, sym, checker));
  }
  return { groups: [{ title: 'schedlab', file: 'schedlab.md', intro: 'Top-level exports of `schedlab`, grouped by the module that defines them.', entries: top }, ...groups] };
}

function firstSentence(doc: string): string {
  const para = doc.split(/\n\s*\n/)[0].replace(/\s+/g, ' ').trim();
  const m = /^(.*?[.:;!?])(\s|$)/.exec(para);
  return (m ? m[1] : para).replace(/\|/g, '\\|');
}

const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function renderGroup(g: Api['groups'][number]): string {
  const out: string[] = [`# ${g.title === 'schedlab' ? '`schedlab`' : `\`schedlab.${g.title}\``}`, '', '<!-- generated by scripts/api-docs.ts from the doc comments: edit those, then run it -->', ''];
  if (g.intro) out.push(g.intro, '');
  const byModule = new Map<string, ApiEntry[]>();
  for (const e of g.entries) byModule.set(e.module, [...(byModule.get(e.module) ?? []), e]);
  const modules = [...byModule.keys()].sort();
  for (const m of modules) {
    if (modules.length > 1) out.push(`## ${m}`, '');
    for (const e of byModule.get(m) as ApiEntry[]) {
      out.push(`### ${e.name}`, '', `*${e.kind}* · \`src/${e.module}.ts\``, '');
      if (e.signatures.length) out.push('```ts', ...e.signatures.map((s) => s), '```', '');
      out.push(e.doc || '(no doc comment)', '');
      for (const ex of e.examples) out.push('Example:', '', '```ts', ex, '```', '');
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** docs/api/ as file name → content. */
export function renderApi(api: Api): Map<string, string> {
  const files = new Map<string, string>();
  const index = ['# schedlab API reference', '', '<!-- generated by scripts/api-docs.ts from the doc comments: edit those, then run it -->', '', '`import { … } from \'schedlab\'`: every export, its signature and what it is for. Namespaces (`import { dfrs } from \'schedlab\'`) have a page each.', ''];
  for (const g of api.groups) {
    files.set(g.file, renderGroup(g));
    index.push(`## [${g.title}](${g.file})`, '', '| export | kind | purpose |', '|---|---|---|');
    for (const e of g.entries) index.push(`| [${e.name}](${g.file}#${anchor(e.name)}) | ${e.kind} | ${firstSentence(e.doc)} |`);
    index.push('');
  }
  files.set('README.md', index.join('\n'));
  return files;
}

if (require.main === module) {
  const files = renderApi(readApi());
  fs.rmSync(API_DIR, { recursive: true, force: true });
  fs.mkdirSync(API_DIR, { recursive: true });
  for (const [name, text] of files) fs.writeFileSync(path.join(API_DIR, name), text);
  const api = readApi();
  const entries = api.groups.flatMap((g) => g.entries);
  const missing = entries.filter((e) => !e.doc);
  console.log(`docs/api: ${files.size} files, ${entries.length} exports, ${entries.filter((e) => e.examples.length).length} with examples, ${missing.length} without a doc comment${missing.length ? ': ' + missing.map((e) => e.name).join(', ') : ''}`);
}
