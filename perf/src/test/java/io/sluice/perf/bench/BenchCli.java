package io.sluice.perf.bench;

import io.sluice.perf.cli.SluiceCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code sluice bench} in-process and captures what it prints. */
final class BenchCli {
    /** Exit code, stdout and stderr of one run. */
    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private BenchCli() {
    }

    static Result run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new SluiceCommand());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final String[] all = new String[args.length + 1];
        all[0] = "bench";
        System.arraycopy(args, 0, all, 1, args.length);
        final int exitCode = commandLine.execute(all);
        return new Result(exitCode, out.toString(), err.toString());
    }
}
