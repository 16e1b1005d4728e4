-- ORDER BY a position in the select list.
select n_regionkey, count(*) as n from nation group by n_regionkey order by 1;
select n_name, n_regionkey from nation order by 2 desc, 1;
select r_name, r_regionkey from region order by 2 desc limit 3;
-- NULLS FIRST on an ORDER BY expression that is not a result column (TPC-DS Q36, Q86).
select n_name, n_regionkey from nation
order by case when n_regionkey = 1 then null else n_regionkey end nulls first, n_name;
select n_name, n_regionkey from nation
order by case when n_regionkey = 1 then null else n_regionkey end desc nulls last, n_name desc;
