/**
 * Sluice's own block store: a store directory of tables, each a manifest, a zonemap index and one
 * block file per block (in the {@link io.sluice.format.BlockLayout block layout}), written by
 * {@link io.sluice.storage.TableWriter} under the store's {@link io.sluice.storage.StoreLock} and read through memory
 * mappings (Chronicle Bytes), at most a {@link io.sluice.storage.BlockFileCache}'s worth open at a time.
 * {@link io.sluice.storage.Table} is one implementation of the storage SPI
 * ({@link io.sluice.format.spi.BlockTable}); {@link io.sluice.storage.StoreCatalog} serves a store's
 * tables to the planner and the scans, and a table's {@link io.sluice.format.StoredBlock}s (the stored
 * columns a scan read of a block) to dispatch, which sends them to other CNs without encoding them again.
 *
 * <p>Every read verifies checksums and bounds, so a corrupt or truncated file is a
 * {@link io.sluice.format.CorruptBlockException} naming the file and block, never wrong rows.
 */
package io.sluice.storage;
