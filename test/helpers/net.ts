import nock from 'nock';

// No test reaches the network: only loopback, where the app under test and local fakes listen.
nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host));

export { nock };
