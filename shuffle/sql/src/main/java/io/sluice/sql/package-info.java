/**
 * The SQL front end: a statement is parsed, validated against a {@link io.sluice.format.spi.Catalog}'s
 * tables, converted to relational algebra and decorrelated by Apache Calcite, then planned by
 * Sluice into the engine's {@link io.sluice.engine.plan.Plan} (filters pushed into scans with the
 * block pruning they imply, join order and build sides from zonemap estimates). Depends on the
 * engine and the format SPI only; nothing a storage engine embeds depends on it.
 */
package io.sluice.sql;
