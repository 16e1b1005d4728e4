package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.control.ControlLinkException;
import io.sluice.engine.exec.MemoryLimitException;
import io.sluice.format.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.StoreLock;
import io.sluice.transport.TransportException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of the {@code sluice} subcommands: runs one with the command line's output and error
 * writers, and turns a user error (bad input, a missing or damaged table) into one line
 * {@code sluice <cmd>: error: <message>} on stderr and exit code 1, without a stack trace.
 */
@Command
abstract class CliCommand implements Callable<Integer> {
    /** Exit code of a command that failed on a user error. */
    static final int FAILED = 1;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try {
            return execute(out, err);
        } catch (final StorageException | IllegalArgumentException | ControlLinkException | QueryFailedException
                | TransportException | MemoryLimitException e) {
            return fail(err, e.getMessage());
        } catch (final UncheckedIOException e) {
            return fail(err, e.getCause().toString());
        } catch (final IOException e) {
            return fail(err, e.toString());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(err, "interrupted");
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Prints an error line for this command and returns {@link #FAILED}. */
    final int fail(final PrintWriter err, final String message) {
        err.println(spec.qualifiedName() + ": error: " + message);
        return FAILED;
    }

    /** This command as it was typed, {@code sluice gen --sf 1 ...}: what a store's lock records about its writer. */
    final String commandLine() {
        return "sluice " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
    }

    /** This command as it was typed, each argument quoted for a POSIX shell where it needs to be: for errors to suggest. */
    final String shellCommand() {
        final StringBuilder sb = new StringBuilder("sluice");
        for (final String arg : spec.root().commandLine().getParseResult().originalArgs()) {
            sb.append(' ').append(shellWord(arg));
        }
        return sb.toString();
    }

    /** {@code arg} as one word of a POSIX shell: as it is when that is safe, else in single quotes. */
    static String shellWord(final String arg) {
        boolean plain = !arg.isEmpty();
        for (int i = 0; i < arg.length() && plain; i++) {
            final char c = arg.charAt(i);
            plain = c < 128 && (Character.isLetterOrDigit(c) || "_-./:=,@%+".indexOf(c) >= 0);
        }
        return plain ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    /** Takes a store's lock for this command and says on stderr whose stale lock it took over and what it removed. */
    final StoreLock lock(final Store store, final PrintWriter err) {
        final StoreLock lock = store.lock(commandLine());
        if (lock.staleHolder() != null) {
            err.println(spec.qualifiedName() + ": took over the lock of store " + store.dir() + " from "
                    + lock.staleHolder() + ", which ended without releasing it");
        }
        if (!lock.removedLeftovers().isEmpty()) {
            err.println(spec.qualifiedName() + ": removed what an unfinished write left in " + store.dir() + ": "
                    + String.join(", ", lock.removedLeftovers().stream()
                            .map(p -> store.dir().relativize(p).toString()).toList()));
        }
        err.flush();
        return lock;
    }

    /** Runs the command; returns its exit code. */
    abstract int execute(PrintWriter out, PrintWriter err) throws IOException, InterruptedException;
}
