// The player's menu, in the bar where playback is controlled: a menu button named "Quality"
// with Data saver / Normal / High as radio items (keyboard: Enter or Space opens, arrows move,
// Enter picks) and the 'Loudness normalization' switch. Choices apply at once and are kept
// per device.
import { useId } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuSwitchItem,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu.tsx';
import { isQuality, QUALITIES, QUALITY_LABELS } from './playback-quality.ts';
import { setQuality, useQuality } from './use-quality.ts';
import { useNormalization, usePlayerControls } from './use-player.ts';

export function QualityMenu() {
  const quality = useQuality();
  const normalization = useNormalization();
  const { setNormalization } = usePlayerControls();
  const ids = useId();
  return (
    // Not modal: the page stays in the accessibility tree (and playing) while it is open.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Quality"
          title={`Quality: ${QUALITY_LABELS[quality].name}`}
          className="shrink-0 text-muted-foreground hover:text-foreground"
        >
          <SlidersHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" side="top" className="min-w-52">
        <DropdownMenuLabel id={`${ids}-label`}>Quality</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          aria-labelledby={`${ids}-label`}
          value={quality}
          onValueChange={(value) => {
            if (isQuality(value)) setQuality(value);
          }}
        >
          {QUALITIES.map((q) => (
            <DropdownMenuRadioItem key={q} value={q} aria-describedby={`${ids}-${q}`}>
              {QUALITY_LABELS[q].name}
              {/* Read as the item's description, so its name stays what people say. */}
              <span
                id={`${ids}-${q}`}
                aria-hidden="true"
                className="ml-auto pl-4 text-xs text-muted-foreground"
              >
                {QUALITY_LABELS[q].detail}
              </span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuSwitchItem
          checked={normalization}
          onCheckedChange={setNormalization}
          // A switch: the menu stays open to show the new state.
          onSelect={(e) => e.preventDefault()}
          aria-describedby={`${ids}-loudness`}
        >
          Loudness normalization
          <span id={`${ids}-loudness`} hidden>
            Plays every song at a similar loudness
          </span>
        </DropdownMenuSwitchItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
