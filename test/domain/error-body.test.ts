import test from 'ava';
import { AppError } from '../../domain/shared/app-error.js';
import { errorBody, errorLine } from '../../domain/shared/error-body.js';

test('an AppError keeps its code, message and extra fields', (t) => {
  const err = new AppError('DUPLICATE_EXTERNAL_ID', 'external_id x is used.', { body: { existing_id: 'inv-1' } });
  t.deepEqual(errorBody(err), {
    message: 'external_id x is used.',
    error: 'duplicate_external_id',
    code: 'DUPLICATE_EXTERNAL_ID',
    error_code: 'DUPLICATE_EXTERNAL_ID',
    existing_id: 'inv-1',
  });
});

test("an error's extra body cannot replace the fields that make the shape", (t) => {
  const err = new AppError('NOT_FOUND', 'No invoice.', { body: { code: 'OTHER', message: 'x', error: 'y', hint: 1 } });
  t.deepEqual(errorBody(err), {
    message: 'No invoice.',
    error: 'not_found',
    code: 'NOT_FOUND',
    error_code: 'NOT_FOUND',
    hint: 1,
  });
});

test('an unforeseen error becomes a generic INTERNAL_ERROR that shows nothing of it', (t) => {
  const err = new Error('password authentication failed for user "secret_admin" at 10.0.0.5');
  const body = errorBody(err);
  t.deepEqual(body, {
    message: 'An internal error occurred.',
    error: 'internal_error',
    code: 'INTERNAL_ERROR',
    error_code: 'INTERNAL_ERROR',
  });
  const http = errorBody(err, { requestId: 'req-1', http: true });
  t.like(http, { code: 'INTERNAL_ERROR', request_id: 'req-1' });
  t.false(JSON.stringify(http).includes('secret_admin'));
  t.false(JSON.stringify(errorBody('a thrown string'))?.includes('thrown string'));
});

test('a validation failure keeps its code off HTTP and the spec 422 shape on it', (t) => {
  const err = AppError.validation({ 'lines.0.quantity': ['must be > 0'] });
  t.deepEqual(errorBody(err), {
    message: 'lines.0.quantity must be > 0',
    error: 'validation_error',
    code: 'VALIDATION_ERROR',
    error_code: 'VALIDATION_ERROR',
    errors: { 'lines.0.quantity': ['must be > 0'] },
  });
  t.deepEqual(errorBody(err, { http: true }), {
    message: 'lines.0.quantity must be > 0',
    errors: { 'lines.0.quantity': ['must be > 0'] },
  });
  t.is(errorLine(errorBody(err)), 'VALIDATION_ERROR: lines.0.quantity must be > 0\n  lines.0.quantity: must be > 0');
});

test("the database's refusal to change an issued invoice is INVOICE_IMMUTABLE, never a 500", (t) => {
  const pg = Object.assign(new Error('locked'), { code: '23001', constraint: 'invoices_fiscal_fields_locked' });
  t.like(errorBody(pg), { code: 'INVOICE_IMMUTABLE', error: 'invoice_immutable' });
});
