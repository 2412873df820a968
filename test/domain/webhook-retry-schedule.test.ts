import test from 'ava';
import { ConfigError, DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from '../../domain/shared/config.js';
import { maxAttemptsFor, retryDelayMs } from '../../domain/webhooks/retry-schedule.js';

test('the default schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts)', (t) => {
  t.deepEqual(loadConfig({}).webhookRetrySchedule, [5, 300, 1800, 7200, 18000, 36000, 36000]);
  t.deepEqual(loadConfig({}).webhookRetrySchedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE);
  t.is(maxAttemptsFor(null, DEFAULT_WEBHOOK_RETRY_SCHEDULE), 8);
  t.is(maxAttemptsFor(3, DEFAULT_WEBHOOK_RETRY_SCHEDULE), 4, "an endpoint's retry_count caps it");
  t.is(maxAttemptsFor(0, DEFAULT_WEBHOOK_RETRY_SCHEDULE), 1);
  t.is(maxAttemptsFor(20, [1, 2]), 3, 'never more than the schedule');
});

test('WEBHOOK_RETRY_SCHEDULE overrides it; bad values are refused at boot', (t) => {
  t.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 4,9' }).webhookRetrySchedule, [1, 4, 9]);
  for (const bad of ['1,x', '-1', '1.5', '1,,2', '999999999']) {
    const err = t.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad }), { instanceOf: ConfigError }) as ConfigError;
    t.regex(err.problems[0], /^WEBHOOK_RETRY_SCHEDULE: /, bad);
  }
});

test('each delay carries ±10 % jitter around the schedule', (t) => {
  const schedule = [5, 300];
  t.is(
    retryDelayMs(schedule, 1, () => 0),
    4500,
  );
  t.is(
    retryDelayMs(schedule, 1, () => 0.5),
    5000,
  );
  t.is(
    retryDelayMs(schedule, 1, () => 1),
    5500,
  );
  t.is(
    retryDelayMs(schedule, 2, () => 0.5),
    300_000,
  );
  const spread = new Set(Array.from({ length: 50 }, () => retryDelayMs(schedule, 2)));
  t.true(spread.size > 10, 'random jitter');
  for (const delay of spread) t.true(delay >= 270_000 && delay <= 330_000);
});
