# sqlite: the sqlite3 shell running SQL scripts: schema, inserts in
# transactions, indexes, joins, views, triggers, CTEs (recursive), window
# functions, JSON, aggregates, collations, ATTACH, VACUUM, dot-commands,
# several output modes, an on-disk and an in-memory database.
set -u
rm -f t.db t2.db
cat >w.sql <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept INTEGER REFERENCES dept(id), salary REAL, hired TEXT,
                 extra JSON);
CREATE INDEX emp_dept ON emp(dept, salary DESC);
CREATE TABLE audit(ts TEXT DEFAULT CURRENT_TIMESTAMP, what TEXT);
CREATE TRIGGER emp_ins AFTER INSERT ON emp BEGIN INSERT INTO audit(what) VALUES ('ins ' || new.name); END;
CREATE TRIGGER emp_upd AFTER UPDATE OF salary ON emp WHEN new.salary > old.salary
  BEGIN INSERT INTO audit(what) VALUES ('raise ' || new.name); END;
BEGIN;
INSERT INTO dept(name) VALUES ('eng'), ('ops'), ('sales'), ('legal');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO emp(name, dept, salary, hired, extra)
  SELECT printf('emp%04d', i), 1 + i % 4, 1000 + (i * 37) % 5000, date('2020-01-01', '+' || i || ' days'),
         json_object('level', i % 5, 'tags', json_array('a', i % 3))
  FROM n;
COMMIT;
CREATE VIEW payroll AS SELECT d.name AS dept, count(*) AS n, sum(salary) AS total, avg(salary) AS mean
  FROM emp e JOIN dept d ON d.id = e.dept GROUP BY d.name;
SELECT * FROM payroll ORDER BY total DESC;
SELECT name, salary, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r,
       sum(salary) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running
  FROM emp WHERE id % 97 = 0;
SELECT json_extract(extra, '$.level') AS lvl, count(*) FROM emp GROUP BY lvl HAVING count(*) > 10;
SELECT value FROM emp, json_each(emp.extra, '$.tags') WHERE emp.id < 4;
UPDATE emp SET salary = salary * 1.1 WHERE dept = 2 AND salary < 2000;
DELETE FROM emp WHERE id % 13 = 0;
SELECT count(*) FROM audit;
SELECT upper(name), lower(name), substr(name, 2, 3), replace(name, 'emp', 'E'), length(name), hex(id), quote(name),
       coalesce(NULL, 1), iif(id > 5, 'big', 'small'), typeof(salary), round(salary, 1), abs(-id), instr(name, '1')
  FROM emp LIMIT 5;
SELECT name FROM emp WHERE name LIKE 'emp01%' ESCAPE '\' AND name GLOB 'emp01[0-4]*' ORDER BY name COLLATE NOCASE;
SELECT group_concat(name, ';') FROM (SELECT name FROM emp ORDER BY salary DESC LIMIT 5);
SELECT strftime('%Y-%m', hired) AS m, count(*) FROM emp GROUP BY m ORDER BY m DESC LIMIT 3;
SELECT e1.name, e2.name FROM emp e1 LEFT JOIN emp e2 ON e2.id = e1.id + 1 WHERE e1.id < 5;
SELECT * FROM emp WHERE id IN (SELECT max(id) FROM emp GROUP BY dept) UNION SELECT * FROM emp WHERE id = 1
  EXCEPT SELECT * FROM emp WHERE id = 2 INTERSECT SELECT * FROM emp;
EXPLAIN QUERY PLAN SELECT * FROM emp WHERE dept = 1 ORDER BY salary DESC;
CREATE TEMP TABLE tmp AS SELECT * FROM emp WHERE salary > 5000;
SELECT count(*) FROM tmp;
ATTACH 't2.db' AS other;
CREATE TABLE other.copy AS SELECT * FROM emp LIMIT 100;
SELECT count(*) FROM other.copy;
DETACH other;
ANALYZE;
PRAGMA integrity_check;
PRAGMA foreign_key_check;
REINDEX;
VACUUM;
SELECT total_changes();
SQL
"$PROG" t.db <w.sql >/dev/null
"$PROG" -json t.db 'SELECT * FROM payroll' >/dev/null
"$PROG" -csv -header t.db 'SELECT * FROM emp LIMIT 50' >emp.csv
"$PROG" :memory: '.mode csv' '.import emp.csv e' 'SELECT count(*), sum(salary) FROM e' '.schema' >/dev/null
"$PROG" -box t.db 'SELECT * FROM dept' >/dev/null
"$PROG" -line t.db 'SELECT * FROM emp LIMIT 2' >/dev/null
"$PROG" -html t.db 'SELECT * FROM dept' >/dev/null
"$PROG" t.db '.tables' '.indexes' '.dbinfo' '.dump dept' '.fullschema' '.stats on' 'SELECT 1' >/dev/null 2>&1
"$PROG" t.db '.dump' >dump.sql && "$PROG" restored.db <dump.sql && "$PROG" restored.db 'SELECT count(*) FROM emp'
"$PROG" :memory: 'SELECT x FROM no_such_table' 2>/dev/null; echo "error exit $?"
exit 0
