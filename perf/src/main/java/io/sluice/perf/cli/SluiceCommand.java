package io.sluice.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command line: entry point of the runnable jar. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = "Range/hash shuffle engine with colocate optimization.",
        subcommands = {CommandLine.HelpCommand.class, BoundariesCommand.class})
public final class SluiceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(final String[] args) {
        // Chronicle reads this once when its classes load, so it must be set before any storage call.
        System.setProperty("chronicle.analytics.disable", "true");
        System.exit(new CommandLine(new SluiceCommand()).execute(args));
    }
}
