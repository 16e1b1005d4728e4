package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.transport.ClusterSecret;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --secret-file}, shared by every command that is or talks to a cluster process: the cluster
 * secret that authenticates every control message and data frame, from a file only its owner may
 * read, or from the file {@code SLUICE_SECRET_FILE} names.
 */
final class SecretOption {
    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "The cluster secret (at least 16 bytes, in a file no other user may read; every process of"
                + " the cluster gives the same one), default: the file $" + ClusterSecret.FILE_ENV + " names. Without"
                + " one, the cluster runs on loopback addresses only. Make one with: " + ClusterSecret.HOW_TO_MAKE)
    Path secretFile;

    /** The control-plane settings, with the secret when one was given. */
    ClusterContext context() {
        return new ClusterContext().secret(ClusterSecret.fromFileOrEnvironment(secretFile));
    }

    /** The secret file given or named by the environment, or null. */
    Path file() {
        if (secretFile != null) {
            return secretFile;
        }
        final String fromEnvironment = System.getenv(ClusterSecret.FILE_ENV);
        return fromEnvironment == null || fromEnvironment.isBlank() ? null : Path.of(fromEnvironment);
    }

    /** How the process authenticates, for its first line: "(authenticated by FILE)" or the loopback note. */
    static String describe(final ClusterContext context) {
        return context.secret() == null ? "no cluster secret: loopback only"
                : "messages authenticated with the " + context.secret();
    }
}
