package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.BlockLayout;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.StorageException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorruptBlockTest {
    @TempDir
    Path dir;

    Table writeTable() {
        try (TableWriter writer = Store.create(dir).createTable("t", TableRoundTripTest.SCHEMA, null)) {
            for (final TableRoundTripTest.Row row : TableRoundTripTest.rows(3000, 11)) {
                TableRoundTripTest.append(writer, row);
            }
            return writer.finish();
        }
    }

    /** Offset and length of a column's data, read from the file's directory with plain Java I/O. */
    static long[] columnRegion(final Path file, final int column) throws Exception {
        final UnsafeBuffer header = new UnsafeBuffer(Files.readAllBytes(file));
        final int entry = BlockLayout.directoryEntry(column);
        return new long[] {header.getLong(entry + BlockLayout.ENTRY_OFFSET, ByteOrder.LITTLE_ENDIAN),
                header.getInt(entry + BlockLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN)};
    }

    static void flipByte(final Path file, final long position) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            final int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x10);
        }
    }

    @ParameterizedTest(name = "column {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5})
    void aFlippedByteInAnyColumnIsDetectedNamingFileAndBlock(final int column) throws Exception {
        final Path file;
        try (Table table = writeTable()) {
            file = table.blockPath(0);
        }
        final long[] region = columnRegion(file, column);
        flipByte(file, region[0] + region[1] / 2);
        try (Table table = Table.open(dir.resolve("t"))) {
            assertThatThrownBy(() -> table.readBlock(0))
                    .isInstanceOf(CorruptBlockException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("block 0")
                    .hasMessageContaining("column " + column + " checksum mismatch");
            // Other columns of the same block are still readable: the damage is confined.
            final int other = (column + 1) % 6;
            assertThat(table.readBlock(0, other).rowCount()).isEqualTo(3000);
        }
    }

    @Test
    void aFlippedHeaderOrZonemapByteIsDetected() throws Exception {
        final Path file;
        try (Table table = writeTable()) {
            file = table.blockPath(0);
        }
        flipByte(file, BlockLayout.zoneMapEntry(6, 2) + 3);
        try (Table table = Table.open(dir.resolve("t"))) {
            assertThatThrownBy(() -> table.readBlock(0, 0))
                    .isInstanceOf(CorruptBlockException.class)
                    .hasMessageContaining("header checksum mismatch");
        }
    }

    @ParameterizedTest(name = "cut to {0} of the file")
    @ValueSource(doubles = {0.0, 0.001, 0.5, 0.999})
    void aTruncatedFileIsDetected(final double keep) throws Exception {
        final Path file;
        try (Table table = writeTable()) {
            file = table.blockPath(0);
        }
        final long size = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength((long) (size * keep));
        }
        try (Table table = Table.open(dir.resolve("t"))) {
            assertThatThrownBy(() -> table.readBlock(0))
                    .isInstanceOf(CorruptBlockException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void notABlockFile() throws Exception {
        final Path file = dir.resolve("x.sbk");
        Files.write(file, new byte[100]);
        assertThatThrownBy(() -> BlockFile.open(file, 9)).isInstanceOf(CorruptBlockException.class)
                .hasMessageContaining("bad magic").hasMessageContaining("block 9");
    }

    @Test
    void aFlippedByteInTheZonemapIndexIsAChecksumMismatch() throws Exception {
        final Path index;
        try (Table table = writeTable()) {
            index = table.dataDir().resolve(ZoneMapIndex.FILE);
        }
        flipByte(index, 20);
        assertThatThrownBy(() -> Table.open(dir.resolve("t"))).isInstanceOf(StorageException.class)
                .hasMessageStartingWith("zonemap index " + index + " is corrupt: its checksum is 0x")
                .hasMessageContaining("the size is right").hasMessageNotContaining("its size is");
    }

    @Test
    void aTruncatedZonemapIndexNamesItsSize() throws Exception {
        final Path index;
        try (Table table = writeTable()) {
            index = table.dataDir().resolve(ZoneMapIndex.FILE);
        }
        final long size = Files.size(index);
        try (RandomAccessFile raf = new RandomAccessFile(index.toFile(), "rw")) {
            raf.setLength(size - 24);
        }
        // 16-byte header, 1 block x 6 columns x 24 bytes, an 8-byte checksum.
        assertThat(size).isEqualTo(16 + 6 * 24 + 8);
        assertThatThrownBy(() -> Table.open(dir.resolve("t"))).isInstanceOf(StorageException.class)
                .hasMessage("zonemap index " + index + " is corrupt: its size is " + (size - 24) + " bytes, but 1 blocks"
                        + " x 6 columns need " + size + "; regenerate or re-import the table");
    }
}
