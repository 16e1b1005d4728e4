-- Window functions over
--   t(id int64, k int64, i int32, d decimal(12,2), dt date, s string)
--   u(id int64, k int64, d decimal(12,2), s string)
-- NULL partition keys form one partition; aggregates skip NULL arguments; NULL order keys go last
-- and are peers of each other. Every statement is compared with DuckDB's answer.

-- PARTITION BY a nullable key: the NULL rows are one partition of their own.
select id, k, avg(d) over (partition by k) as ad from t;
select id, k, sum(i) over (partition by k order by id) as si, count(i) over (partition by k order by id) as ci from t;
select id, k, row_number() over (partition by k order by id) as rn, count(*) over (partition by k) as n from t;
select id, s, min(d) over (partition by s) as mn, max(dt) over (partition by s) as mx from t;

-- ORDER BY a nullable key: NULLs last, NULL keys peers of each other (RANK ties, RANGE frames take them all).
select id, k, i, rank() over (partition by k order by i) as r, dense_rank() over (partition by k order by i) as dr from t;
select id, i, sum(d) over (order by i) as sd, count(*) over (order by i) as n from t;
select id, k, d, max(d) over (partition by k order by d desc) as mx, min(d) over (partition by k order by d desc) as mn from t;
select id, d, sum(d) over (order by d nulls first) as sd from t;

-- Partitions whose arguments are all NULL: SUM, AVG, MIN and MAX are NULL, COUNT is 0.
select id, k, s, sum(d) over (partition by k, s) as sd, count(d) over (partition by k, s) as cd, avg(i) over (partition by k, s) as ai from t;

-- ROWS frames, running over unique order keys.
select id, k, sum(k) over (partition by i order by id rows between unbounded preceding and current row) as sk from t;

-- A window over u, filtered by its result.
select * from (select id, k, rank() over (partition by k order by d) as r from u) x where r = 1;
select k, count(*) as n, sum(count(*)) over (order by k) as run_n from u group by k;

-- Frames with offsets over NULL arguments and NULL order keys.
select id, sum(k) over (order by id rows between 1 preceding and current row) as s from t;
select id, i, sum(d) over (order by i range between 1 preceding and 1 following) as sd,
       count(d) over (order by i range between 1 preceding and 1 following) as cd from t;
select id, k, min(dt) over (partition by k order by id rows between 2 preceding and 2 following) as mn,
       max(d) over (partition by k order by id rows between 1 following and unbounded following) as mx from t;
