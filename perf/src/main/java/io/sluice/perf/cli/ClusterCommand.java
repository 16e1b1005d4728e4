package io.sluice.perf.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code sluice cluster}: looks at a cluster ({@code status}) or runs one on this host ({@code up}). */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Shows a cluster's members (status), starts a coordinator and CN processes on this host (up), or"
            + " measures what such a cluster costs while idle (idle).",
        subcommands = {ClusterStatusCommand.class, ClusterUpCommand.class, ClusterIdleCommand.class})
public final class ClusterCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the usage on stderr, and the exit code of a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return spec.exitCodeOnInvalidInput();
    }
}
