import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

const { basename, isAbsolute, join, normalize, relative, resolve } = posix;

/** One file or folder that a stage copies: where it comes from in the project, where it lands in the image. */
export interface StageCopy {
  /** Path relative to the project root (the build context, or a build stage's copy of it). */
  source: string;
  /** Path relative to the stage's WORKDIR. */
  target: string;
}

/** What the tests need of one Dockerfile stage. */
export interface DockerStage {
  name: string | null;
  workdir: string;
  env: Record<string, string>;
  copies: StageCopy[];
  cmd: string[];
}

interface Instruction {
  keyword: string;
  args: string;
}

/**
 * The stages of a Dockerfile, for the forms this project's Dockerfile uses: `FROM image [AS name]`, `WORKDIR`,
 * `ENV KEY=value`, `COPY [--from=stage] source… target` (a build stage's files count as the project's when it
 * copies the whole context into its WORKDIR) and `CMD [json]`. Anything it cannot place throws, so a new form
 * fails the check instead of slipping past it.
 */
export function readDockerfile(file: string): DockerStage[] {
  const stages: DockerStage[] = [];
  const contextCopied = new Set<DockerStage>();
  for (const { keyword, args } of instructions(readFileSync(file, 'utf8'))) {
    if (keyword === 'FROM') {
      stages.push({ name: /\sAS\s+(\S+)/i.exec(args)?.[1] ?? null, workdir: '/', env: {}, copies: [], cmd: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${keyword} before FROM in ${file}`);
    if (keyword === 'WORKDIR') stage.workdir = resolve(stage.workdir, args);
    if (keyword === 'ENV') {
      for (const pair of args.split(/\s+/)) {
        const [key, value] = pair.split('=');
        if (value === undefined) throw new Error(`ENV ${args}: write ENV KEY=value`);
        stage.env[key] = value;
      }
    }
    if (keyword === 'CMD') stage.cmd = JSON.parse(args) as string[];
    if (keyword === 'COPY') {
      const words = args.split(/\s+/);
      const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : null;
      const target = words.pop()!;
      if (!from && words.length === 1 && words[0] === '.' && resolve(stage.workdir, target) === stage.workdir) {
        contextCopied.add(stage);
      }
      const origin = from ? stages.find((candidate) => candidate.name === from) : null;
      if (from && (!origin || !contextCopied.has(origin))) {
        throw new Error(`COPY --from=${from}: not a stage that copies the whole project into its WORKDIR`);
      }
      for (const source of words) {
        const project = origin ? relative(origin.workdir, resolve(origin.workdir, source)) : normalize(source);
        if (project.startsWith('..') || isAbsolute(project)) throw new Error(`COPY ${source}: outside the project`);
        const into = relative(stage.workdir, resolve(stage.workdir, target));
        stage.copies.push({ source: project, target: target.endsWith('/') ? join(into, basename(project)) : into });
      }
    }
  }
  return stages;
}

/** The Dockerfile's instructions: comments dropped, continued lines joined. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}
