package io.sluice.perf.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs short system commands ({@code ip}, {@code kill}) without a shell, each with a timeout, output captured. */
final class Commands {
    /** How long one command may take before it is killed and reported. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** What one command printed and how it exited. */
    record Result(List<String> command, int exitCode, String stdout, String stderr) {
        boolean succeeded() {
            return exitCode == 0;
        }

        /** The command, its exit code and its stderr, for an error message. */
        String describe() {
            return "`" + String.join(" ", command) + "` exited with " + exitCode
                    + (stderr.isBlank() ? " and printed nothing on stderr" : ": " + stderr.strip());
        }
    }

    private Commands() {
    }

    /** Runs {@code command} and returns its stdout; fails with the command and its stderr unless it exits with 0. */
    static String check(final List<String> command) {
        final Result result = run(command);
        if (!result.succeeded()) {
            throw new IllegalStateException(result.describe());
        }
        return result.stdout();
    }

    /** Runs {@code command} whatever its exit code; fails only when it cannot start or outlives {@link #TIMEOUT}. */
    static Result run(final List<String> command) {
        final Process process;
        try {
            process = new ProcessBuilder(command).start();
            process.getOutputStream().close();
        } catch (final IOException e) {
            throw new IllegalStateException("cannot start `" + String.join(" ", command) + "`: " + e.getMessage()
                    + "; is " + command.get(0) + " installed and on the PATH?", e);
        }
        // Both pipes are drained while the command runs, so a chatty one cannot block on a full pipe.
        final CompletableFuture<String> stdout = drain(process.getInputStream(), command);
        final CompletableFuture<String> stderr = drain(process.getErrorStream(), command);
        try {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("`" + String.join(" ", command) + "` did not finish within "
                        + TIMEOUT.toSeconds() + " s and was killed");
            }
            return new Result(List.copyOf(command), process.exitValue(),
                    stdout.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                    stderr.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (final InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running `" + String.join(" ", command) + "`", e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the output of `" + String.join(" ", command) + "`", e);
        }
    }

    private static CompletableFuture<String> drain(final InputStream stream, final List<String> command) {
        final CompletableFuture<String> text = new CompletableFuture<>();
        final Thread reader = new Thread(() -> {
            try (InputStream in = stream) {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (final IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        }, "output of " + command.get(0));
        reader.setDaemon(true);
        reader.start();
        return text;
    }
}
