/**
 * The Jupyter kernel schedlab registers: tslab, with two changes to how a
 * failed cell is reported (kernel specs run it through the launcher that
 * `registerKernel` writes, analysis/jupyter.ts):
 *
 * - tslab prints a compile error or an exception to stderr and answers
 *   `status: error` with no `ename`/`evalue`/`traceback`, so nbconvert reports
 *   `<Error>: ` and the notebook keeps no error output. Here the text the cell
 *   wrote to stderr becomes the error: `TypeScript: line 2, column 7: Cannot
 *   find name 'x'.` (compiler message and location in the cell) or
 *   `InputError: …` (an exception), sent as an `error` output and in the reply;
 * - after an error tslab cancels every request that arrives in the next 200 ms,
 *   so with `nbconvert --allow-errors` (which sends the next cell at once) every
 *   later cell came back empty. A request that says `stop_on_error: false` now
 *   leaves the queue running, as Jupyter's protocol asks.
 *
 * And on shutdown it also closes the figure renderer: tslab closes its sockets
 * and lets the process end when nothing is left running, which never happened
 * while the renderer's Chromium ran (every notebook that imports schedlab), so
 * Jupyter waited 5 s, killed the kernel and left Chromium to exit on its own.
 */
import * as path from 'path';

interface Reply {
  header: { msg_type: string };
  content: unknown;
  signAndSend(key: unknown, socket: unknown): void;
}
interface Message {
  content: { code: string; stop_on_error?: boolean };
  createReply(): Reply;
}
interface ExecuteReply {
  status: string;
  execution_count?: number;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}
type Stream = (name: string, text: string) => void;
type DisplayData = (data: unknown, update: boolean) => void;
interface Handler {
  execQueue: { add<T>(fn: () => Promise<T>): Promise<T>; reset(delay?: number): void };
  handleExecute(req: Message['content'], stream: Stream, display: DisplayData): Promise<ExecuteReply>;
  handleExecuteImpl(req: Message['content'], stream: Stream, display: DisplayData): Promise<{ count: number }>;
}
interface Server {
  connInfo: { key: unknown };
  iopub: unknown;
  handler: Handler;
}

/** Cap on the stderr text kept per cell to describe its failure (the stream itself is sent whole). */
const KEPT_STDERR = 64 * 1024;

/** tslab's diagnostic lines: `[file ]line:column - message`, 1-based in the cell. */
const DIAGNOSTIC = /^(?:(\S+) )?(\d+):(\d+) - (.*)$/;

/** What a failed cell wrote to stderr, as a Jupyter error (ename, evalue, traceback). */
export function describeFailure(stderr: string): { ename: string; evalue: string; traceback: string[] } {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== '');
  const diagnostics = lines.map((l) => DIAGNOSTIC.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (diagnostics.length > 0) {
    const where = (m: RegExpExecArray) => `${m[1] ? `${m[1]}, ` : ''}line ${m[2]}, column ${m[3]}: ${m[4]}`;
    const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : '';
    return { ename: 'TypeScript', evalue: where(diagnostics[0]) + more, traceback: diagnostics.map((m) => `TypeScript: ${where(m)}`) };
  }
  // An exception: tslab prints node's report (source line, caret, `Name: message`, stack).
  const named = lines.map((l) => /^(?:Uncaught )?([A-Za-z_$][\w$]*(?:Error|Exception))(?: \[[^\]]*\])?: ?(.*)$/.exec(l)).find((m) => m !== null);
  // Frames inside the kernel (vm, tslab) say nothing about the cell.
  const traceback = lines.filter((l) => !/^\s+at .*(node:vm|[/\\]tslab[/\\]dist[/\\]|sigintHandlersWrap)/.test(l));
  if (named) return { ename: named[1], evalue: named[2], traceback };
  return { ename: 'Error', evalue: lines[0] ?? 'the cell failed without a message on stderr', traceback: traceback.length ? traceback : ['Error: the cell failed without a message on stderr'] };
}

/** Patch tslab's handler and server classes (see the file comment). */
function patchTslab(tslabDir: string): void {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const jupyter = require(path.join(tslabDir, 'dist', 'jupyter.js')) as { JupyterHandlerImpl: { prototype: Handler }; ZmqServer: { prototype: Server & { handleExecute(socket: unknown, msg: Message): Promise<void>; close(): void } } };
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { TaskCanceledError } = require(path.join(tslabDir, 'dist', 'util.js')) as { TaskCanceledError: new (...a: unknown[]) => Error };

  jupyter.JupyterHandlerImpl.prototype.handleExecute = async function (this: Handler, req, stream, display) {
    try {
      const count = await this.execQueue.add(() => this.handleExecuteImpl(req, stream, display));
      return { status: 'ok', execution_count: count.count };
    } catch (e) {
      if (e instanceof TaskCanceledError) return { status: 'abort' };
      const count = typeof (e as { count?: unknown })?.count === 'number' ? (e as { count: number }).count : undefined;
      if (count === undefined) console.error('unexpected error:', e);
      // stop_on_error false (nbconvert --allow-errors): the next cells run. Otherwise
      // tslab's rule: requests already queued in the next 200 ms are cancelled.
      this.execQueue.reset(req.stop_on_error === false ? undefined : 200);
      return { status: 'error', ...(count !== undefined ? { execution_count: count } : {}) };
    }
  };

  const close = jupyter.ZmqServer.prototype.close;
  jupyter.ZmqServer.prototype.close = function (this: Server) {
    close.call(this);
    // The renderer of every schedlab the notebook loaded (none: nothing to close, nothing loaded here).
    for (const m of Object.values(require.cache)) {
      const exports = m?.exports as { closeRenderer?: unknown } | undefined;
      if (m && /[/\\]analysis[/\\]render\.js$/.test(m.filename) && typeof exports?.closeRenderer === 'function') void (exports.closeRenderer as () => Promise<void>)();
    }
  };

  jupyter.ZmqServer.prototype.handleExecute = async function (this: Server, socket: unknown, msg: Message) {
    const send = (type: string, content: unknown) => {
      const r = msg.createReply();
      r.header.msg_type = type;
      r.content = content;
      r.signAndSend(this.connInfo.key, this.iopub);
    };
    let stderr = '';
    const stream: Stream = (name, text) => {
      if (name === 'stderr' && stderr.length < KEPT_STDERR) stderr += text;
      send('stream', { name, text });
    };
    const display: DisplayData = (data, update) => send(update ? 'update_display_data' : 'display_data', data);
    const content = await this.handler.handleExecute(msg.content, stream, display);
    if (content.status === 'error') {
      const error = describeFailure(stderr);
      send('error', error);
      Object.assign(content, error);
    }
    const reply = msg.createReply();
    reply.header.msg_type = 'execute_reply';
    reply.content = content;
    reply.signAndSend(this.connInfo.key, socket);
  };
}

/** Start the kernel on a Jupyter connection file, with this installation's tslab. */
export function startKernel(connectionFile: string): void {
  const tslabDir = path.dirname(require.resolve('tslab/package.json'));
  patchTslab(tslabDir);
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { startKernel: start } = require(path.join(tslabDir, 'dist', 'main.js')) as { startKernel(o: { configPath: string; enableFindLocal: boolean }): void };
  // enableFindLocal false: a tslab in the notebook's node_modules would not carry the patches.
  start({ configPath: connectionFile, enableFindLocal: false });
}
