/**
 * The columnar format Sluice computes on and ships: column types and schemas, column vectors, blocks
 * of at most 8192 rows with a zonemap per column, and the block layout (header, directory, zonemaps,
 * checksummed column data) shared by block files and the wire: a {@link io.sluice.format.StoredBlock}
 * is some columns of a stored block, sent as they lie in the file ({@link io.sluice.format.BlockProjection}).
 *
 * <p>Depends on no other Sluice module, only Agrona's buffers. Decoding verifies checksums and
 * bounds: damaged or truncated bytes are a {@link io.sluice.format.CorruptBlockException} naming
 * the source and block, never wrong rows.
 */
package io.sluice.format;
