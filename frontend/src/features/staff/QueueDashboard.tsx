import { useEffect, useState } from 'react';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { type QueueDashboard as Dashboard, staffApi } from './staff-api';
import { StaffRefusal, useStaffGate } from './StaffGate';
import './staff.css';

/** Per-queue counts and the jobs that failed, with their error, Retry and Remove (BullMQ's Queue API, either backend). */
function QueueDashboard() {
  const gate = useStaffGate(() => staffApi.queues());
  const [dashboard, setDashboard] = useState<Dashboard | null>(null);

  const load = async () => {
    const outcome = await staffApi.queues();
    if (outcome.ok) setDashboard(outcome.data);
    else showToast({ title: 'Could not load the queues', description: outcome.error, variant: 'destructive' });
  };
  useEffect(() => {
    if (gate.kind === 'open') void load();
  }, [gate.kind]);

  const act = async (label: string, call: () => Promise<{ ok: boolean; error?: string }>) => {
    const outcome = await call();
    showToast(
      outcome.ok
        ? { title: label, variant: 'success' }
        : { title: `${label} failed`, description: outcome.error ?? '', variant: 'destructive' },
    );
    await load();
  };

  if (gate.kind === 'checking') return <p>Loading…</p>;
  if (gate.kind === 'refused') return <StaffRefusal message={gate.message} />;
  if (!dashboard) return <p>Loading…</p>;

  return (
    <div className="staff-queues">
      <p>
        Queues on {dashboard.backend === 'redis' ? 'Redis' : 'PostgreSQL'}.{' '}
        <button type="button" className="btn btn--small btn--outline" onClick={() => void load()}>
          Refresh
        </button>
      </p>
      <table className="staff-table" aria-label="Queues">
        <thead>
          <tr>
            <th scope="col">Queue</th>
            <th scope="col">Waiting</th>
            <th scope="col">Active</th>
            <th scope="col">Delayed</th>
            <th scope="col">Failed</th>
            <th scope="col">Completed</th>
          </tr>
        </thead>
        <tbody>
          {dashboard.queues.map((q) => (
            <tr key={q.queue} data-testid={`queue-${q.queue}`}>
              <th scope="row">{q.queue}</th>
              <td>{q.waiting}</td>
              <td>{q.active}</td>
              <td>{q.delayed}</td>
              <td data-testid="failed-count">{q.failed}</td>
              <td>{q.completed}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Failed jobs</h2>
      {dashboard.failed.length === 0 ? (
        <p>No failed jobs.</p>
      ) : (
        <table className="staff-table" aria-label="Failed jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Error</th>
              <th scope="col">Attempts</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {dashboard.failed.map((job) => (
              <tr key={`${job.queue}:${job.id}`} data-testid="failed-job">
                <td>
                  {job.queue} / {job.name}
                  <br />
                  <small>{job.id}</small>
                </td>
                <td className="staff-table__error">{job.error}</td>
                <td data-testid="job-attempts">{job.attempts}</td>
                <td>{job.state === 'failed' ? 'failed for good' : 'retrying'}</td>
                <td>
                  <div className="btn-row">
                    <button
                      type="button"
                      className="btn btn--small"
                      onClick={() => void act('Job retried', () => staffApi.retryJob(job.queue, job.id))}
                    >
                      Retry
                    </button>
                    <button
                      type="button"
                      className="btn btn--small btn--ghost text-danger"
                      onClick={() => void act('Job removed', () => staffApi.removeJob(job.queue, job.id))}
                    >
                      Remove
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export default withErrorBoundary(QueueDashboard);
