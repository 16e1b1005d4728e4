package io.sluice.perf.reference;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The pages of {@code docs/reference}, generated from the code: {@code commands.md}
 * ({@link CommandReference}) and {@code properties.md} ({@link PropertyReference}).
 */
public final class ReferencePages {
    /** Where the pages are committed, from the repository's root. */
    public static final String DIRECTORY = "docs/reference";
    /** The command that regenerates the committed pages, run from the repository's root. */
    public static final String REGENERATE = "mvn -B -q package -DskipTests && bin/sluice reference --out " + DIRECTORY;

    private ReferencePages() {
    }

    /**
     * Every page by its file name.
     *
     * @param root the {@code sluice} command line
     * @return file name to Markdown, in a stable order
     */
    public static Map<String, String> pages(final CommandLine root) {
        final Map<String, String> pages = new LinkedHashMap<>();
        pages.put("commands.md", CommandReference.markdown(root));
        pages.put("properties.md", PropertyReference.markdown());
        return pages;
    }

    /**
     * Writes every page into {@code dir}, creating it when missing.
     *
     * @return the files written
     */
    public static List<Path> write(final Path dir, final CommandLine root) throws IOException {
        Files.createDirectories(dir);
        final List<Path> written = new ArrayList<>();
        for (final Map.Entry<String, String> page : pages(root).entrySet()) {
            written.add(Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8));
        }
        return written;
    }

    /**
     * The pages in {@code dir} that are missing or differ from what the code generates now.
     *
     * @return their paths, empty when every page is current
     */
    public static List<Path> stale(final Path dir, final CommandLine root) throws IOException {
        final List<Path> stale = new ArrayList<>();
        for (final Map.Entry<String, String> page : pages(root).entrySet()) {
            final Path file = dir.resolve(page.getKey());
            if (!Files.isRegularFile(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(page.getValue())) {
                stale.add(file);
            }
        }
        return stale;
    }
}
