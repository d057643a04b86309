import { Injectable } from '@nestjs/common';
import { ActionRegistry } from '../kit/action.registry';
import { MiniAppDocuments } from '../publishing/mini-app-documents';
import { checkPlatformMetadata } from '../publishing/platform-metadata';

export interface MiniAppCheck {
  id: string;
  title: string;
  /** Empty: the platform accepts the mini-app's document and each action's own one. */
  problems: string[];
}

/**
 * The platform's metadata rules (src/testing, what `createMetadata` refuses) run on each document
 * the service publishes for a mini-app: its own and each of its actions' (`GET <action path>`).
 */
@Injectable()
export class PlatformChecks {
  constructor(
    private readonly registry: ActionRegistry,
    private readonly documents: MiniAppDocuments,
  ) {}

  run(baseUrl: string): MiniAppCheck[] {
    return this.registry.miniApps().map(({ miniApp, actions }) => {
      const problems = checkPlatformMetadata(this.documents.miniApp(miniApp.id, baseUrl));
      for (const action of actions) {
        const alone = checkPlatformMetadata(this.documents.action(action.path, baseUrl));
        problems.push(...alone.map((problem) => `GET ${action.path}: ${problem}`));
      }
      return { id: miniApp.id, title: miniApp.title, problems };
    });
  }
}
