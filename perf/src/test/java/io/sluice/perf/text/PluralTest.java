package io.sluice.perf.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PluralTest {
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "1, row, 1 row",
        "0, row, 0 rows",
        "2, row, 2 rows",
        "1, core, 1 core",
        "3, core, 3 cores",
        "1, CN, 1 CN",
        "4, CN, 4 CNs",
        "1, query, 1 query",
        "2, query, 2 queries",
        "2, topology, 2 topologies",
        "2, key, 2 keys",
        "2, match, 2 matches",
        "2, process, 2 processes",
        "-1, row, -1 rows",
    })
    void aCountTakesTheNounInItsNumber(final long count, final String noun, final String expected) {
        assertThat(Plural.of(count, noun)).isEqualTo(expected);
    }
}
