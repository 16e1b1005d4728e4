package io.sluice.perf.cli;

import io.sluice.format.StorageException;
import io.sluice.iceberg.IcebergFolderTables;
import io.sluice.perf.text.Plural;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice iceberg-add}: adds Parquet files to an Iceberg table kept in a folder, creating it if need be. */
@Command(name = "iceberg-add", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Adds Parquet files, as they are, to the Iceberg table in the folder TABLE (its metadata in"
                + " TABLE/metadata/, as Iceberg's file-system tables keep it; no catalog, no Hadoop), in one commit;"
                + " creates the table, unpartitioned and with the columns of the first file, when the folder holds"
                + " none. Each file's row count, null counts and column bounds, read from its footer, go into the"
                + " manifest, so that readers prune whole files by them.",
            "The files stay where they are and must keep the table's columns; a folder given adds the .parquet"
                + " files in it, in name order. Read the tables with --iceberg (the folder of table folders, or TABLE)"
                + " in sql, query, query-bench, cn, coordinator and cluster up (see docs/iceberg.md)."},
        footer = {"", "Examples:", "  sluice iceberg-add warehouse/lineitem data/lineitem",
            "  sluice iceberg-add warehouse/orders data/orders-2024.parquet data/orders-2025.parquet",
            "  sluice sql --iceberg warehouse \"select count(*) from lineitem\""})
final class IcebergAddCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "TABLE", description = "The table's folder (created if need be).")
    Path table;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "FILE",
            description = "Parquet files, or folders of .parquet files, to add.")
    List<Path> files;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        final List<Path> parquet = new ArrayList<>();
        for (final Path f : files) {
            if (Files.isDirectory(f)) {
                try (Stream<Path> entries = Files.list(f)) {
                    entries.filter(p -> p.getFileName().toString().endsWith(".parquet") && Files.isRegularFile(p))
                            .sorted().forEach(parquet::add);
                }
            } else if (Files.isRegularFile(f)) {
                parquet.add(f);
            } else {
                throw new StorageException("parquet file " + f + " does not exist: give Parquet files or folders of"
                        + " them");
            }
        }
        if (parquet.isEmpty()) {
            throw new StorageException("no .parquet file in " + files + ": give Parquet files or folders of them");
        }
        final IcebergFolderTables.Added added = IcebergFolderTables.addFiles(table, parquet);
        out.println("added " + Plural.of(added.files(), "file") + " (" + Plural.of(added.rows(), "row")
                + ") to iceberg table " + table + ": snapshot " + added.snapshotId() + ", "
                + Plural.of(added.totalFiles(), "data file") + " in all; read it with --iceberg "
                + table.toAbsolutePath().getParent());
        return 0;
    }
}
