import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

// Used only when TEST_CONTAINERS=1 asks for it and a container runtime exists; the same images
// as docker-compose.yml.
export async function startContainers(): Promise<{ kafkaBrokers: string; mongoUrl: string; stop: () => Promise<void> }> {
  const mongo = await new GenericContainer('mongo:8')
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  let kafka: StartedTestContainer | undefined;
  try {
    // A fixed host port, because a Kafka broker must advertise the address clients reach it at.
    kafka = await new GenericContainer('apache/kafka:3.9.1')
      .withExposedPorts({ container: 9092, host: 39092 })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:39092',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start();
  } catch (error) {
    await mongo.stop();
    throw error;
  }
  const started = kafka;
  return {
    kafkaBrokers: '127.0.0.1:39092',
    mongoUrl: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}/`,
    stop: async () => {
      await Promise.all([started.stop(), mongo.stop()]);
    },
  };
}
