package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.UnionAll;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A UNION ALL's columns take the widest numeric type of its inputs, each narrower input is
 * projected to exactly those types, and inputs that cannot be widened are an error naming the
 * input and the column.
 */
class UnionTypesTest {
    private static RowType row(final DataType... types) {
        final String[] names = new String[types.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = "c" + i;
        }
        return new RowType(List.of(names), List.of(types));
    }

    @Test
    void numbersWidenToTheWidestInputsType() {
        final List<DataType> widest = UnionTypes.widest(List.of(
                row(DataType.INT32, DataType.INT64, DataType.decimal(1), DataType.STRING, DataType.INT32),
                row(DataType.INT64, DataType.decimal(2), DataType.decimal(3), DataType.STRING, DataType.DOUBLE)));
        assertThat(widest).containsExactly(DataType.INT64, DataType.decimal(2), DataType.decimal(3), DataType.STRING,
                DataType.DOUBLE);
    }

    @Test
    void theWideningProjectionGivesExactlyTheWidestTypes() {
        final RowType narrow = row(DataType.INT32, DataType.INT64, DataType.decimal(1), DataType.INT32);
        final List<DataType> wide = List.of(DataType.INT64, DataType.decimal(2), DataType.decimal(3), DataType.DOUBLE);
        final List<NamedExpr> items = UnionTypes.widening(narrow, wide);
        assertThat(new io.sluice.engine.exec.Projection(narrow, items).outputType().types()).isEqualTo(wide);
        assertThat(UnionTypes.widening(narrow, narrow.types())).isNull();
    }

    @Test
    void aStringUnionedWithANumberNamesTheInputAndColumn() {
        assertThatThrownBy(() -> UnionTypes.widest(List.of(row(DataType.INT64, DataType.STRING),
                row(DataType.INT64, DataType.INT64))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("input 1 column 1 'c1' is int64").hasMessageContaining("'c1' is string");
    }

    @Test
    void inputsOfDifferentWidthsAreRefused() {
        assertThatThrownBy(() -> UnionTypes.widest(List.of(row(DataType.INT64), row(DataType.INT64, DataType.DATE))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same number of columns");
        assertThatThrownBy(() -> new UnionAll(List.of(row(DataType.INT64), row(DataType.INT32))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("project the inputs");
    }
}
