package io.sluice.perf.cli;

import io.sluice.perf.reference.ReferencePages;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice reference}: writes (or checks) the generated reference pages of {@code docs/reference}. */
@Command(name = "reference", mixinStandardHelpOptions = true,
        description = {"Writes the reference pages generated from the code into a directory: commands.md, every"
            + " command's --help from the command definitions, and properties.md, every sluice.* system property"
            + " with its default and meaning. With --check it writes nothing and fails (exit code 1) naming the"
            + " pages that differ from what the code generates."},
        footer = {"", "Example (from the repository's root):", "  sluice reference --out docs/reference"})
public final class ReferenceCommand extends CliCommand {
    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory of the pages.")
    Path dir;

    @Option(names = "--check", description = "Compare the pages in DIR with the generated ones instead of writing.")
    boolean check;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        final CommandLine root = new CommandLine(new SluiceCommand());
        if (check) {
            final List<Path> stale = ReferencePages.stale(dir, root);
            if (!stale.isEmpty()) {
                return fail(err, String.join(", ", stale.stream().map(Path::toString).toList())
                        + (stale.size() == 1 ? " is" : " are") + " not what the code generates: regenerate with `"
                        + ReferencePages.REGENERATE + "`");
            }
            out.println("the reference pages in " + dir + " are current");
            return 0;
        }
        for (final Path written : ReferencePages.write(dir, root)) {
            out.println("wrote " + written);
        }
        return 0;
    }
}
