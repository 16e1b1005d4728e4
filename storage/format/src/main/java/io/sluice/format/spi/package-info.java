/**
 * The storage SPI: how storage that Sluice does not own hands it tables. A
 * {@link io.sluice.format.spi.BlockTable} supplies a table's schema, the zonemap of every column in
 * every block, and, when scanned, its blocks as column vectors; a {@link io.sluice.format.spi.Catalog}
 * finds tables by name. The statistics, boundaries, colocated scan assignment and pruning read only
 * zonemaps; the engine's scans read blocks. Sluice's block store is one implementation
 * ({@code io.sluice.storage.Table}).
 *
 * <p>Blocks can come from the heap (vectors built directly, {@link io.sluice.format.Block#of}) or
 * from bytes anywhere, on or off the heap, in Sluice's block layout
 * ({@link io.sluice.format.BlockDecoder} over an Agrona {@code DirectBuffer}).
 */
package io.sluice.format.spi;
