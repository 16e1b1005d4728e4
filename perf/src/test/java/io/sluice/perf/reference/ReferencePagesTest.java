package io.sluice.perf.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.SluiceCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The committed pages of {@code docs/reference} are what the code generates now, and what it generates
 * covers every command, every option a user may see ({@code --help} leaves hidden ones out) and every
 * {@code sluice.*} property the code reads.
 */
class ReferencePagesTest {
    /** The repository's root, seen from the perf module where the tests run. */
    private static final Path ROOT = Path.of("..");
    /** A string literal naming a Sluice system property. */
    private static final List<String> MODULES = List.of("storage", "zonemap", "shuffle", "transport", "dispatch", "perf");
    private static final Pattern PROPERTY_LITERAL = Pattern.compile("\"(sluice\\.[A-Za-z0-9_.]+)\"");

    @TempDir
    Path dir;

    private static CommandLine sluice() {
        return new CommandLine(new SluiceCommand());
    }

    @Test
    void theCommittedPagesAreWhatTheCodeGenerates() throws IOException {
        final List<Path> stale = ReferencePages.stale(ROOT.resolve(ReferencePages.DIRECTORY), sluice()).stream()
                .map(ROOT::relativize).toList();
        assertThat(stale).as("%s %s stale: regenerate with `%s` (from the repository's root) and commit the result",
                stale, stale.size() == 1 ? "is" : "are", ReferencePages.REGENERATE).isEmpty();
    }

    @Test
    void aPageThatDiffersOrIsMissingIsStale() throws IOException {
        ReferencePages.write(dir, sluice());
        assertThat(ReferencePages.stale(dir, sluice())).isEmpty();

        Files.writeString(dir.resolve("commands.md"), "# Command reference\n", StandardCharsets.UTF_8);
        Files.delete(dir.resolve("properties.md"));

        assertThat(ReferencePages.stale(dir, sluice()))
                .containsExactly(dir.resolve("commands.md"), dir.resolve("properties.md"));
    }

    @Test
    void theCommandPageHasEveryCommandAndEachOfItsOptions() {
        final CommandLine root = sluice();
        final String page = CommandReference.markdown(root);
        assertThat(page).contains("\n## sluice\n", "\n## sluice gen\n", "\n## sluice cluster up\n",
                "\n## sluice reference\n", "- [sluice cluster status](#sluice-cluster-status)\n");
        forEach(root, command -> {
            assertThat(page).contains("\n## " + command.getCommandSpec().qualifiedName() + "\n");
            for (final OptionSpec option : command.getCommandSpec().options()) {
                if (!option.hidden()) {
                    assertThat(page).as(command.getCommandSpec().qualifiedName()).contains(option.longestName());
                }
            }
        });
    }

    @Test
    void theCommandPageDoesNotDependOnTheTerminal() {
        final String page = CommandReference.markdown(sluice());
        final int widest = page.lines().filter(line -> !line.startsWith("- [") && !line.startsWith("`mvn"))
                .mapToInt(String::length).max().orElseThrow();
        assertThat(widest).isLessThanOrEqualTo(CommandReference.WIDTH);
        assertThat(page).doesNotContain(" \n");
    }

    @Test
    void thePropertyPageGivesEachDefaultAsOneWouldSetIt() {
        final String page = PropertyReference.markdown();
        assertThat(page).contains("| `sluice.cluster.dead.timeout` | `4s` |",
                "| `sluice.cluster.heartbeat.interval` | `500ms` |",
                "| `sluice.transport.term.length` | `16m` |",
                "| `sluice.dispatch.route.retention` | `300s` |",
                "| `sluice.join.shuffleMinBuildRows` | `120000` |",
                "| `sluice.sql.planCache` | `256` |",
                "| `sluice.shuffle.wholeBatchRouting` | `when_proven` |");
    }

    @Test
    void everySluicePropertyTheCodeNamesIsInTheTable() throws IOException {
        final Set<String> listed = PropertyReference.rows().stream().map(PropertyReference.Row::key)
                .collect(Collectors.toSet());
        final Set<String> named = new TreeSet<>();
        for (final String module : MODULES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module))) {
                for (final Path file : files.filter(ReferencePagesTest::isMainSource).toList()) {
                    final Matcher m = PROPERTY_LITERAL.matcher(Files.readString(file, StandardCharsets.UTF_8));
                    while (m.find()) {
                        named.add(m.group(1));
                    }
                }
            }
        }
        assertThat(named).as("property names in main sources").isNotEmpty();
        assertThat(listed).as("the properties the reference lists (add a missing one to its module's *Property enum)")
                .containsAll(named);
    }

    @Test
    void everyListedPropertyIsASluicePropertyListedOnce() {
        final List<String> keys = PropertyReference.rows().stream().map(PropertyReference.Row::key).toList();
        assertThat(keys).doesNotHaveDuplicates().allMatch(key -> key.startsWith("sluice."));
        assertThat(PropertyReference.rows()).allMatch(row -> !row.defaultValue().isBlank() && !row.meaning().isBlank());
    }

    private static boolean isMainSource(final Path file) {
        final String path = file.toString().replace('\\', '/');
        return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/");
    }

    private static void forEach(final CommandLine command, final Consumer<CommandLine> action) {
        action.accept(command);
        for (final CommandLine sub : command.getSubcommands().values()) {
            forEach(sub, action);
        }
    }
}
