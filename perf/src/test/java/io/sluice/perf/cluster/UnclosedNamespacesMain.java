package io.sluice.perf.cluster;

import java.io.IOException;

/**
 * Creates network namespaces and never closes them, to show what the shutdown hook and the sweep remove: prints
 * {@code created <namespace>...}, then exits at once ({@code exit}) or once its stdin ends ({@code wait}), in both
 * cases leaving the namespaces to the shutdown hook unless it is killed first.
 *
 * <p>Usage: {@code UnclosedNamespacesMain <hosts> exit|wait}.
 */
public final class UnclosedNamespacesMain {
    /** The line prefix before the names of the namespaces created, separated by spaces. */
    public static final String CREATED = "created ";

    private UnclosedNamespacesMain() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length != 2 || !(args[1].equals("exit") || args[1].equals("wait"))) {
            System.err.println("usage: UnclosedNamespacesMain <hosts> exit|wait");
            System.exit(2);
        }
        final NetworkNamespaces namespaces = NetworkNamespaces.create(Integer.parseInt(args[0]));
        final StringBuilder names = new StringBuilder(CREATED);
        for (int host = 0; host < namespaces.hosts(); host++) {
            names.append(namespaces.name(host)).append(' ');
        }
        System.out.println(names.toString().trim());
        if (args[1].equals("wait")) {
            while (System.in.read() >= 0) {
                // Input is not expected; only its end matters.
            }
        }
    }
}
