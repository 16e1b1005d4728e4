package io.sluice.perf.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code mariadb} command-line client (Debian's {@code mariadb-client}, which {@code .ci/test-tools}
 * installs): found on the PATH, and run once per statement in batch mode (tab-separated, a header line).
 * Where it is missing the test that needs it is skipped, unless {@code -Dsluice.test.netns.required=true}
 * (CI) says every test must run.
 */
public final class MariadbClient {
    private MariadbClient() {
    }

    /** The client's executable; skips the calling test when there is none and CI does not require it. */
    public static Path find() {
        final String path = System.getenv("PATH");
        if (path != null) {
            for (final String d : path.split(File.pathSeparator)) {
                final Path candidate = Path.of(d, "mariadb");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        final boolean required = Boolean.getBoolean("sluice.test.netns.required");
        assertThat(required).as("the mariadb client is not on the PATH, and -Dsluice.test.netns.required=true needs"
                + " every test to run: install mariadb-client (.ci/test-tools does, as root)").isFalse();
        assumeThat(false).as("the mariadb client (Debian package mariadb-client) is not on the PATH").isTrue();
        return null;
    }

    /** Runs one statement against the server on {@code port} as user sluice; returns the lines it printed. */
    public static List<String> run(final Path mariadb, final int port, final String sql) throws Exception {
        final List<String> command = new ArrayList<>(List.of(mariadb.toString(), "--no-defaults", "-h", "127.0.0.1", "-P",
                Integer.toString(port), "-u", "sluice", "--skip-ssl", "-A", "--batch", "-e", sql, "sluice"));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
