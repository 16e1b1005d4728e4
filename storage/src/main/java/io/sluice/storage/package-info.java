/**
 * The columnar block store: column types and vectors, blocks of at most 8192 rows with a zonemap
 * per column, the block layout shared by block files and the wire, tables and stores.
 *
 * <p>Depends on no other Sluice module. Block files are memory-mapped through Chronicle Bytes and
 * read through Agrona buffers; every read verifies checksums and bounds, so a corrupt or truncated
 * file is a {@link io.sluice.storage.CorruptBlockException} naming the file and block, never wrong
 * rows.
 */
package io.sluice.storage;
