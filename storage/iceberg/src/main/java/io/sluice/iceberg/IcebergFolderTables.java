package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Iceberg tables kept in local folders without a catalog ({@code NAME/metadata/vN.metadata.json}, as Iceberg's
 * file-system tables), written without Hadoop: Parquet files already written are added to a table, created with the
 * first file's columns when the folder holds none. What {@code --iceberg FOLDER} then reads.
 */
public final class IcebergFolderTables {
    private IcebergFolderTables() {
    }

    /**
     * What a commit added.
     *
     * @param files      data files added
     * @param rows       their rows
     * @param snapshotId the snapshot the commit made
     * @param totalFiles the table's data files after it
     */
    public record Added(int files, long rows, long snapshotId, long totalFiles) {
    }

    /**
     * Adds {@code files} to the table in {@code folder} in one commit, their bounds read from their footers; creates
     * the table (unpartitioned, the columns of the first file) when the folder has none.
     *
     * @return what the commit added
     * @throws StorageException when a file cannot be read or has columns the table lacks, naming it
     */
    public static Added addFiles(final Path folder, final List<Path> files) {
        if (files.isEmpty()) {
            throw new StorageException("no Parquet files to add to iceberg table folder " + folder + ": name at least one");
        }
        final FolderTableOperations ops = new FolderTableOperations(folder);
        if (ops.current() == null) {
            ops.commit(null, TableMetadata.newTableMetadata(ParquetDataFiles.schemaOf(files.get(0)),
                    PartitionSpec.unpartitioned(), "file:" + folder.toAbsolutePath(), Map.of()));
        }
        final Table table = new BaseTable(ops, folder.getFileName().toString());
        ParquetDataFiles.append(table, files);
        final Snapshot snapshot = table.currentSnapshot();
        return new Added(files.size(), Long.parseLong(snapshot.summary().getOrDefault("added-records", "0")),
                snapshot.snapshotId(), Long.parseLong(snapshot.summary().getOrDefault("total-data-files", "0")));
    }
}
