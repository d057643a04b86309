import { Controller, Get, NotFoundException, Param, type StreamableFile } from '@nestjs/common';
import { fileAnswer, ServesImmutableFiles } from '../kit/immutable-file';
import { MiniAppIcons } from '../kit/mini-app-icons';

/**
 * `GET /icons/<file>`: the mini-app icons of src/assets/icons. Never rate-limited. An icon's
 * published URL changes with its content; the policy keeps an SVG opened on its own from
 * running anything.
 */
@Controller('icons')
@ServesImmutableFiles({
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
})
export class MiniAppIconsController {
  constructor(private readonly icons: MiniAppIcons) {}

  @Get(':file')
  icon(@Param('file') name: string): StreamableFile {
    const file = this.icons.get(name);
    if (!file) throw new NotFoundException('No such icon');
    return fileAnswer(file.body, file.contentType);
  }
}
