import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/*
 * Where the service's JSON log lines go while `npm start` draws its progress bar: into a file (appended, so earlier
 * starts stay readable), then, once the demo is ready, to stdout as with `npm run server`. A file rather than
 * holding lines back: the indexing phase's log is not bounded by anything we control (a failing task logs per
 * attempt), and a file keeps it whole without holding it in memory.
 */
export class LogSink {
  private fd: number | null;
  /** Lines written to the file. */
  fileLines = 0;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, "a");
  }

  readonly write = (line: string): void => {
    if (this.fd === null) {
      process.stdout.write(line);
      return;
    }
    writeSync(this.fd, line);
    this.fileLines++;
  };

  toStdout(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
