/**
 * Iceberg tables as Sluice tables through the storage SPI: an {@link io.sluice.iceberg.IcebergCatalog} finds the
 * tables of one namespace of a REST or JDBC catalog, or of a folder of table metadata, and an
 * {@link io.sluice.iceberg.IcebergTable} reads a table's current snapshot: its Parquet data files through
 * {@code io.sluice.parquet} (each row group a block, as there), with the manifests' file bounds as
 * {@link io.sluice.format.spi.BlockFiles}, so pruning rules out whole files before it reads their row groups'
 * statistics.
 *
 * <p>Hadoop-free: files are read and written through {@link io.sluice.iceberg.LocalFileIO}. Depends on the format
 * and Parquet modules only, so that the embeddable core never pulls iceberg-core.
 */
package io.sluice.iceberg;
