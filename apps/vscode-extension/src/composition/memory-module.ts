// memory-core's services, bound as memory-core's own module will bind them (the lead swaps this
// for `createMemoryModule()` once memory-core exports it). Ports are bound by the extension module.
import { ContainerModule } from 'inversify';
import {
  ConfiguredMemorySettings,
  DefaultGroupIdResolver,
  DefaultMemoryGate,
  DefaultPromotionService,
  DefaultRecallService,
  DefaultTurnPlanner,
  GroupIdResolver,
  MemoryConfiguration,
  MemoryGate,
  PromotionService,
  RecallService,
  SecretGuard,
  SecretlintSecretGuard,
  TurnPlanner,
} from '@graphiti-memory/memory-core';

export function createCoreServicesModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(MemoryConfiguration).to(ConfiguredMemorySettings).inSingletonScope();
    bind(MemoryGate).to(DefaultMemoryGate).inSingletonScope();
    bind(GroupIdResolver).to(DefaultGroupIdResolver).inSingletonScope();
    bind(SecretGuard).to(SecretlintSecretGuard).inSingletonScope();
    bind(PromotionService).to(DefaultPromotionService).inSingletonScope();
    bind(TurnPlanner).to(DefaultTurnPlanner).inSingletonScope();
    bind(RecallService).to(DefaultRecallService).inSingletonScope();
  });
}
