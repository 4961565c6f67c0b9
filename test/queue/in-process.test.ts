/** The embedded driver against the shared queue behaviour. */
import { InProcessDriver } from '../../src/queue';
import { describeDriverBehaviour } from './support/driver-behaviour';

describeDriverBehaviour('in-process driver', { make: () => Promise.resolve(new InProcessDriver()) });
