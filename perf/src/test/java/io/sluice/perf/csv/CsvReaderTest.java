package io.sluice.perf.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReaderTest {
    /** A record as read: its start line and its fields, quoted ones written as {@code <field>}. */
    record Rec(long line, List<String> fields) {
    }

    static List<Rec> read(final String text) throws IOException {
        final List<Rec> records = new ArrayList<>();
        try (CsvReader reader = new CsvReader(new StringReader(text), "t.csv")) {
            while (reader.next()) {
                final List<String> fields = new ArrayList<>();
                for (int i = 0; i < reader.fieldCount(); i++) {
                    fields.add(reader.quoted(i) ? "<" + reader.field(i) + ">" : reader.field(i));
                }
                records.add(new Rec(reader.recordLine(), fields));
            }
        }
        return records;
    }

    @Test
    void plainRecordsWithAndWithoutFinalLineBreak() throws IOException {
        assertThat(read("a,b\n1,2\n")).containsExactly(new Rec(1, List.of("a", "b")), new Rec(2, List.of("1", "2")));
        assertThat(read("a,b\n1,2")).containsExactly(new Rec(1, List.of("a", "b")), new Rec(2, List.of("1", "2")));
        assertThat(read("")).isEmpty();
    }

    @Test
    void crlfAndLoneCrEndRecords() throws IOException {
        assertThat(read("a,b\r\n1,2\r\n3,4\r5,6")).containsExactly(new Rec(1, List.of("a", "b")),
                new Rec(2, List.of("1", "2")), new Rec(3, List.of("3", "4")), new Rec(4, List.of("5", "6")));
    }

    @Test
    void emptyFieldsAndEmptyLines() throws IOException {
        assertThat(read(",x,\n\n\"\",")).containsExactly(new Rec(1, List.of("", "x", "")),
                new Rec(2, List.of("")), new Rec(3, List.of("<>", "")));
    }

    @Test
    void quotedFieldsHoldCommasQuotesAndLineBreaks() throws IOException {
        final String text = "id,s\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n4,\"crlf\r\ninside\"\r\n5,\"\"\"\"\n6,end";
        assertThat(read(text)).containsExactly(new Rec(1, List.of("id", "s")), new Rec(2, List.of("1", "<a,b>")),
                new Rec(3, List.of("2", "<say \"hi\">")), new Rec(4, List.of("3", "<two\nlines>")),
                new Rec(6, List.of("4", "<crlf\r\ninside>")), new Rec(8, List.of("5", "<\">")),
                new Rec(9, List.of("6", "end")));
    }

    @Test
    void aByteOrderMarkIsSkipped() throws IOException {
        assertThat(read("\uFEFFa,b\n")).containsExactly(new Rec(1, List.of("a", "b")));
    }

    @Test
    void spacesAreKept() throws IOException {
        assertThat(read(" a , b ")).containsExactly(new Rec(1, List.of(" a ", " b ")));
    }

    @Test
    void aQuoteLeftOpenIsReportedWithTheLineItOpenedOn() {
        assertThatThrownBy(() -> read("a\nb\n\"open\nstill\nopen"))
                .isInstanceOf(CsvFormatException.class)
                .hasMessageStartingWith("t.csv:3: ")
                .hasMessageContaining("never closed")
                .satisfies(e -> assertThat(((CsvFormatException) e).line()).isEqualTo(3));
    }

    @Test
    void textAfterAClosingQuoteIsRejected() {
        assertThatThrownBy(() -> read("a\n\"x\"y\n")).isInstanceOf(CsvFormatException.class)
                .hasMessageStartingWith("t.csv:2: ").hasMessageContaining("after a closing quote");
    }

    @Test
    void aQuoteInsideAnUnquotedFieldIsRejected() {
        assertThatThrownBy(() -> read("a\nb\nab\"c\n")).isInstanceOf(CsvFormatException.class)
                .hasMessageStartingWith("t.csv:3: ").hasMessageContaining("quote inside an unquoted field");
    }

    @Test
    void manyFieldsAndLongFieldsAcrossBufferBoundaries() throws IOException {
        final StringBuilder sb = new StringBuilder();
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(i);
            expected.add(Integer.toString(i));
        }
        final String big = "x".repeat(200_000);
        sb.append("\n\"").append(big).append("\"\n");
        assertThat(read(sb.toString())).containsExactly(new Rec(1, expected), new Rec(2, List.of("<" + big + ">")));
    }
}
