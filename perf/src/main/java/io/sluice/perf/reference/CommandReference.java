package io.sluice.perf.reference;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The command-line reference: a table of contents, then every command's {@code --help} as picocli prints
 * it from the command's definition, at a fixed width so that the page does not depend on the terminal.
 */
public final class CommandReference {
    /** Columns the usage messages are laid out in. */
    public static final int WIDTH = 100;

    private CommandReference() {
    }

    /**
     * The page for a command line and all its subcommands, depth first in the order they are declared.
     *
     * @param root the {@code sluice} command line; its usage width is set to {@link #WIDTH}
     * @return Markdown
     */
    public static String markdown(final CommandLine root) {
        root.setUsageHelpAutoWidth(false);
        root.setUsageHelpWidth(WIDTH);
        final List<CommandLine> commands = new ArrayList<>();
        collect(root, commands);
        final StringBuilder page = new StringBuilder();
        page.append("# Command reference\n\n")
                .append("Every `sluice` command's `--help`, generated from the command definitions in\n")
                .append("`perf/src/main/java/io/sluice/perf/cli`; do not edit it by hand. Regenerate it with\n")
                .append('`').append(ReferencePages.REGENERATE).append("`.\n")
                .append("How to use the commands: [the command-line guide](../command-line.md).\n\n");
        for (final CommandLine command : commands) {
            final String name = command.getCommandSpec().qualifiedName();
            page.append("- [").append(name).append("](#").append(name.replace(' ', '-')).append(")\n");
        }
        for (final CommandLine command : commands) {
            page.append("\n## ").append(command.getCommandSpec().qualifiedName()).append("\n\n```text\n")
                    .append(withoutTrailingSpaces(command.getUsageMessage(CommandLine.Help.Ansi.OFF)))
                    .append("```\n");
        }
        return page.toString();
    }

    private static void collect(final CommandLine command, final List<CommandLine> into) {
        into.add(command);
        for (final CommandLine sub : command.getSubcommands().values()) {
            if (!into.contains(sub)) {
                collect(sub, into);
            }
        }
    }

    private static String withoutTrailingSpaces(final String text) {
        final StringBuilder out = new StringBuilder(text.length());
        for (final String line : text.split("\n", -1)) {
            out.append(line.stripTrailing()).append('\n');
        }
        // split keeps the text after the last newline as an empty line: drop the newline added for it
        out.setLength(out.length() - 1);
        return out.toString();
    }
}
