-- NULLs through expressions, filters, projections and ORDER BY over t and u (see README.md).
-- Each statement ends with ; at the end of a line; "-- error: text" before one expects a SqlException.

-- Arithmetic: NULL where an operand is NULL, exact and in double precision.
select id, k + 1 as a, k - i as b, k * i as c from t;
select id, d + 1 as a, d * 2 as b, d - d as c, i * d as e from t;
select id, k / 7.0 as a, d / 2 as b, i / 4 as c from t;
-- Division by zero (i is 0 in some rows) is an infinity or NaN in DuckDB, never an error.
select id, k / i as q, d / i as r from t;
select id, -k as neg, k + cast(null as bigint) as n, d * cast(null as decimal(12,2)) as m from t;
select id, (k + i) * (d - 1) as x from t where id < 30;

-- Comparisons in WHERE: a NULL comparison drops the row, and so does its negation.
select id from t where k < 3;
select id from t where not (k < 3);
select id from t where k <> 2;
select id from t where s = 'app';
select id from t where s >= 'b';
select id from t where s < 'apple';
select id from t where d > 0;
select id from t where dt < date '1996-01-01';
select id from t where k = i;
select id from t where k = cast(null as bigint);
select id from u where d <= 3.25;

-- Three-valued AND / OR / NOT, also made visible through CASE.
select id from t where k < 3 and i > 0;
select id from t where k < 3 or i > 0;
select id from t where not (k < 3 and i > 0);
select id from t where not (k < 3 or i > 0);
select id, case when k < 3 and i > 0 then 'T' when not (k < 3 and i > 0) then 'F' else 'N' end as v from t;
select id, case when k < 3 or s like 'a%' then 'T' when not (k < 3 or s like 'a%') then 'F' else 'N' end as v from t;
select id, case when not (s = 'app') then 1 when s = 'app' then 0 end as v from t;
select id from t where (k > 1 or i < 0) and (d > 5 or s >= 'b');

-- IN lists.
select id from t where k in (1, 3, 5);
select id from t where k not in (1, 3, 5);
select id from t where s in ('app', 'zeta', '');
select id from t where s not in ('app', 'zeta');
select id, case when k in (1, 2) then 1 when not (k in (1, 2)) then 0 end as v from t;
select id, case when i in (1, 4, 5) then 'in' when i not in (1, 4, 5) then 'out' else 'null' end as v from t;
select id from t where k in (1, null);
select id from t where k not in (1, null);
select id, case when k in (2, null) then 'in' when not (k in (2, null)) then 'out' else 'null' end as v from t;

-- LIKE and BETWEEN.
select id from t where s like 'ap%';
select id from t where s not like 'ap%';
select id from t where s like '%an%';
select id, case when s like 'b%' then 1 when s not like 'b%' then 0 end as v from t;
select id from t where k between 2 and 4;
select id from t where k not between 2 and 4;
select id from t where d between -1 and 100;
select id from t where dt between date '1995-01-01' and date '1998-12-31';

-- CASE: a NULL condition goes to the next branch; a missing ELSE is NULL.
select id, case when k > 2 then k else -1 end as v from t;
select id, case when k > 2 then k end as v from t;
select id, case when i > 0 then d when i < 0 then -d end as v from t;
select id, case k when 1 then 'one' when 2 then 'two' else 'other' end as v from t;
select id, case when s is null then 'none' else s end as v from t;
select id, case when dt is null then date '1900-01-01' else dt end as v from t;
select id, case when d > 50 then d / 3 else d end as v from t;
select id, case when cast(null as boolean) then 1 else 2 end as v from u;
select id, case when k > 3 then s when k > 1 then 'small' end as v from t;

-- COALESCE and NULLIF.
select id, coalesce(k, i, -1) as v from t;
select id, coalesce(s, 'none') as v from t;
select id, coalesce(d, 0) as v from t;
select id, coalesce(dt, date '2000-01-01') as v from t;
select id, nullif(k, 2) as v from t;
select id, nullif(s, '') as v from t;
select id, nullif(k, i) as v from t;
select id, coalesce(nullif(k, 1), i) as v from t;
select id from t where coalesce(k, 0) = 0;

-- IS NULL and IS NOT NULL.
select id from t where k is null;
select id from t where k is not null and s is null;
select id from t where k + i is null;
select id from t where (k < 3) is null;
select id from t where s is not null and d is not null and dt is not null and i is not null and k is not null;
select id from t where k is null and i is null and d is null and dt is null and s is null;
select id from u where k is null or d is null;
select id from t where (k < 3) is not true;
select id from t where (k < 3) is false;

-- SUBSTRING, EXTRACT and date arithmetic over NULLs.
select id, substring(s from 1 for 2) as p from t;
select id from t where substring(s from 2 for 2) = 'pp';
select id, extract(year from dt) as y from t;
select id from t where extract(year from dt) >= 1997;
select id, cast(dt + interval '10' day as date) as later, cast(dt - interval '1' day as date) as earlier from t;
select id from t where dt + interval '30' day > date '1998-01-01';

-- A division of an aggregate over no rows (NULL), as TPC-H Q17 divides SUM(...) by 7.0.
select sum(d) / 7.0 as avg_d from t where k > 100;
select id, k / (d - d) as z from t where id < 12;

-- Projections of NULL.
select id, cast(null as integer) as n, cast(null as varchar) as v, cast(null as date) as w from t;
select id, null as n from u;

-- ORDER BY with NULLs: last by default in both directions; NULLS FIRST / LAST as written.
select id, k from t order by k, id;
select id, k from t order by k desc, id;
select id, s from t order by s nulls first, id;
select id, s from t order by s desc nulls last, id;
select id, d from t order by d desc nulls first, id;
select id, dt from t order by dt, id desc;
select id, k + i as ki from t order by ki, id;
select id, coalesce(k, 100) as ck from t order by ck desc, id limit 5;
select id, k, d from u order by k desc, d nulls first, id;

-- What Sluice does not evaluate says so.
-- error: the _ wildcard is not supported
select id from t where s like 'a_';
-- Months added to a date column (DuckDB's result is a timestamp, the cast makes it a date); NULL stays NULL.
select id, cast(dt + interval '1' month as date) as m, cast(dt - interval '1' year as date) as y from t;
