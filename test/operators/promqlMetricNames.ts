// The metric names a PromQL expression reads, for checking operators/ against what the code
// exports. A small lexer, not a parser: it knows where PromQL puts names that are not metrics
// (label matchers, grouping label lists, ranges, strings, functions, keywords) and takes every
// other identifier as a metric. A function it does not know is an error, so a typo or a new
// function is looked at rather than silently taken for (or not taken for) a metric.

const AGGREGATIONS = [
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
];

const FUNCTIONS = [
  'abs',
  'absent',
  'absent_over_time',
  'ceil',
  'changes',
  'clamp',
  'clamp_max',
  'clamp_min',
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'days_in_month',
  'delta',
  'deriv',
  'exp',
  'floor',
  'histogram_avg',
  'histogram_count',
  'histogram_fraction',
  'histogram_quantile',
  'histogram_stddev',
  'histogram_stdvar',
  'histogram_sum',
  'holt_winters',
  'double_exponential_smoothing',
  'hour',
  'idelta',
  'increase',
  'irate',
  'label_join',
  'label_replace',
  'ln',
  'log2',
  'log10',
  'minute',
  'month',
  'predict_linear',
  'rate',
  'resets',
  'round',
  'scalar',
  'sgn',
  'sort',
  'sort_desc',
  'sort_by_label',
  'sort_by_label_desc',
  'sqrt',
  'time',
  'timestamp',
  'vector',
  'year',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'sum_over_time',
  'count_over_time',
  'quantile_over_time',
  'stddev_over_time',
  'stdvar_over_time',
  'last_over_time',
  'present_over_time',
  'mad_over_time',
  'acos',
  'acosh',
  'asin',
  'asinh',
  'atan',
  'atanh',
  'cos',
  'cosh',
  'sin',
  'sinh',
  'tan',
  'tanh',
  'deg',
  'rad',
  'pi',
];

/** Followed by a parenthesised list of label names, not an expression. */
const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set([...GROUPING, 'bool', 'and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);
const CALLABLE = new Set([...AGGREGATIONS, ...FUNCTIONS]);

const IDENTIFIER = /[A-Za-z_:][A-Za-z0-9_:]*/y;
const STRING = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/y;
// Numbers and durations (0.95, 1e3, 5m, 1h30m); Grafana variables ($__rate_interval, ${api}).
const NUMBER_OR_VARIABLE = /[0-9.](?:[eE][+-]?|[0-9A-Za-z_.])*|\$\{?[A-Za-z0-9_]+\}?/y;

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** Index just past the `close` that ends the group opened at `at`, skipping quoted strings. */
function skipGroup(expr: string, at: number, close: string): number {
  let i = at + 1;
  while (i < expr.length && expr[i] !== close) {
    const quoted = matchAt(STRING, expr, i);
    i += quoted ? quoted.length : 1;
  }
  if (i >= expr.length) throw new Error(`unclosed "${expr[at]}" at ${at} in: ${expr}`);
  return i + 1;
}

/** The metric names `expr` selects, each once, in order of first use. */
export function metricNamesIn(expr: string): string[] {
  const names = new Set<string>();
  let labelListNext = false;
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '#') {
      const end = expr.indexOf('\n', i);
      i = end === -1 ? expr.length : end;
      continue;
    }
    // Label matchers and ranges hold label names, values and durations, never a metric.
    if (c === '{') {
      i = skipGroup(expr, i, '}');
      continue;
    }
    if (c === '[') {
      i = skipGroup(expr, i, ']');
      continue;
    }
    if (c === '(' && labelListNext) {
      labelListNext = false;
      i = skipGroup(expr, i, ')');
      continue;
    }
    const token = matchAt(STRING, expr, i) ?? matchAt(NUMBER_OR_VARIABLE, expr, i);
    if (token) {
      i += token.length;
      continue;
    }
    const identifier = matchAt(IDENTIFIER, expr, i);
    if (!identifier) {
      i += 1; // an operator or punctuation
      continue;
    }
    i += identifier.length;
    const word = identifier.toLowerCase();
    labelListNext = GROUPING.has(word);
    if (KEYWORDS.has(word)) continue;
    const next = expr.slice(i).trimStart()[0];
    if (next === '(') {
      if (!CALLABLE.has(word)) throw new Error(`unknown PromQL function "${identifier}" in: ${expr}`);
      continue;
    }
    if (CALLABLE.has(word) && (next === undefined || /[A-Za-z]/.test(next))) continue; // `sum by (x) (...)`
    names.add(identifier);
  }
  return [...names];
}
