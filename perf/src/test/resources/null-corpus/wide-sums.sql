-- SUM as an exact 128-bit value (DuckDB: DECIMAL(38,s) for decimals, HUGEINT for integers), over
--   t(id int64, k int64, i int32, d decimal(12,2), dt date, s string)
--   u(id int64, k int64, d decimal(12,2), s string)
-- The cross join t x u repeats each row of t 15 times; values near 9e16 at scale 2 (9e18 in units of
-- the scale) make every group's sum leave the 64-bit range after two rows. Compared with DuckDB.

-- Sums beyond 64 bits: decimals, integers, negative, and per group (NULL keys, NULL inputs).
select sum(t.d + 90000000000000000.00) as s, count(t.d) as n from t, u;
select t.k, sum(t.d + 90000000000000000.00) as s, count(*) as n from t, u group by t.k order by t.k nulls last;
select t.k, sum(7000000000000000000 + t.k) as s from t, u group by t.k order by t.k nulls last;
select t.k, sum(-90000000000000000.00 - t.d) as s from t, u group by t.k order by t.k nulls last;
select t.i, sum(t.i * 800000000000000000) as s from t, u group by t.i order by t.i nulls last;

-- Groups whose running sum crosses zero and the 64-bit bounds in both directions.
select t.k, sum(case when u.id in (2, 4, 6, 8, 10, 12, 14) then t.d + 90000000000000000.00 else -90000000000000000.00 - t.d end) as s
from t, u group by t.k order by t.k nulls last;
select t.k, sum(case when u.id <= 7 then 7000000000000000000 else -7000000000000000000 end) as s
from t, u group by t.k order by t.k nulls last;

-- AVG stays a double.
select t.k, avg(t.d + 90000000000000000.00) as a from t, u group by t.k order by t.k nulls last;

-- HAVING and WHERE over a wide sum, against constants and other sums.
select t.k, sum(t.d + 90000000000000000.00) as s from t, u group by t.k
having sum(t.d + 90000000000000000.00) > 9000000000000000000 order by t.k;
select t.k, count(*) as n from t, u group by t.k
having sum(-90000000000000000.00 - t.d) < -20000000000000000 and count(*) > 50 order by t.k;
select t.k, sum(t.d) as s from t, u group by t.k having sum(t.d + 90000000000000000.00) >= sum(t.d) order by t.k;

-- ORDER BY a wide sum, both directions, NULLs last.
select t.k, sum(t.d + 90000000000000000.00) as s from t, u group by t.k order by s desc, t.k;
select t.k, sum(7000000000000000000 + t.k) as s from t, u group by t.k order by s, t.k;
select t.k, sum(t.d + 90000000000000000.00) as s from t, u group by t.k order by s desc, t.k limit 3;

-- Arithmetic: with constants and other decimals exact, division a double (TPC-H Q14's shape).
select t.k, 100.00 * sum(t.d + 90000000000000000.00) / sum(90000000000000000.00 + t.i) as r
from t, u group by t.k order by t.k nulls last;
select t.k, sum(t.d + 90000000000000000.00) - sum(90000000000000000.00 + t.d) as zero,
  sum(t.d + 90000000000000000.00) + 1.5 as plus, 2 * sum(t.d + 90000000000000000.00) as twice
from t, u group by t.k order by t.k nulls last;

-- CASE over a wide sum.
select t.k, case when sum(case when u.id in (2, 4, 6, 8, 10, 12, 14) then t.d else -t.d end) > 0
  then sum(t.d + 90000000000000000.00) else -sum(t.d + 90000000000000000.00) end as c
from t, u group by t.k order by t.k nulls last;

-- MIN and MAX of sums and a comparison of a sum with the largest sum (TPC-H Q15's shape).
with r as (select t.k, sum(t.d + 90000000000000000.00) as s from t, u group by t.k)
select max(s) as mx, min(s) as mn from r;
with r as (select t.k, sum(t.d + 90000000000000000.00) as s from t, u group by t.k)
select k, s from r where s = (select max(s) from r) order by k;
