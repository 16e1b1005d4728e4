package io.sluice.perf.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command line: entry point of the runnable jar. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = "Range/hash shuffle engine with colocate optimization.",
        subcommands = {GenCommand.class, ImportCommand.class, AnalyzeCommand.class, InspectCommand.class,
                BoundariesCommand.class, QueryCommand.class, SqlCommand.class,
                CoordinatorCommand.class, CnCommand.class, ClusterCommand.class,
                IcebergAddCommand.class, QueryBenchCommand.class, BenchCommand.class, ReferenceCommand.class,
                CommandLine.HelpCommand.class})
public final class SluiceCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the usage on stderr, and the exit code of a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return spec.exitCodeOnInvalidInput();
    }

    public static void main(final String[] args) {
        // Chronicle reads this once when its classes load, so it must be set before any storage call.
        System.setProperty("chronicle.analytics.disable", "true");
        System.exit(new CommandLine(new SluiceCommand()).execute(args));
    }
}
