#!/usr/bin/env node
/**
 * `schedlab <command> [args]`: subcommand dispatcher. Add a command with one
 * line in COMMANDS (summary + lazy loader of its `main(argv) => exit code`).
 */
type Main = (argv: readonly string[]) => Promise<number> | number;

interface Command {
  summary: string;
  load: () => Promise<Main>;
}

export const COMMANDS: Record<string, Command> = {
  simulate: { summary: 'run FCFS / EASY / conservative backfilling on a trace or a Lublin workload', load: async () => (await import('../cli/simulate')).simulateMain },
  convert: { summary: 'convert a workload between SWF, Slurm sacct logs and Batsim JSON', load: async () => (await import('../cli/convert')).convertMain },
  sweep: { summary: 'run, inspect, merge and distribute parameter sweeps', load: async () => (await import('../cli/sweep')).sweepMain },
  init: { summary: 'make a folder a notebook project: toolkit link, its own tslab kernel, live charts, a starter notebook', load: async () => (await import('../cli/init')).initMain },
  claims: { summary: "a paper's stated numbers and findings with verdicts computed from the committed results", load: async () => (await import('../cli/claims')).claimsMain },
  paper: { summary: "run a paper notebook's full-scale experiment into results/<notebook>/ (resumable, --shard, --slurm)", load: async () => (await import('../cli/paper')).paperMain },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: schedlab <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nschedlab <command> --help shows the options of a command.`;
}

/** Dispatch `argv` (without node and script). Returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name === undefined ? 2 : 0;
  }
  const cmd = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!cmd) {
    process.stderr.write(`schedlab: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  return (await cmd.load())(rest);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`schedlab: ${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
